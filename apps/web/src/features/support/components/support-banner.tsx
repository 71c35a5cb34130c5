import { use, useState } from 'react';
import { Button, Group, Text } from '@mantine/core';
import { IconLifebuoy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { CurrentSupportSession, UserInfo } from '@partner-portal/contracts';
import { notifyError } from '@/components/notify';
import { endSupportSession } from '../api/end-support-session';
import { supportLocales } from '../lib/locales';
import classes from './support-banner.module.css';

/**
 * The banner on every page of a support session (docs/security.md, "Support sessions"): whose
 * portal this is, who supports, until when, and End, which gives the browser back to the supporter.
 */
export function SupportBanner({ user, session }: { user: UserInfo; session: CurrentSupportSession }) {
  use(supportLocales());
  const { t, i18n } = useTranslation();
  const [ending, setEnding] = useState(false);
  const endsAt = new Intl.DateTimeFormat(i18n.language, { hour: '2-digit', minute: '2-digit' }).format(new Date(session.endsAt));
  const end = async () => {
    setEnding(true);
    try {
      await endSupportSession(session.id);
      window.location.assign('/');
    } catch (error) {
      notifyError(error);
      setEnding(false);
    }
  };
  return (
    <div className={classes.banner} role="region" aria-label={t('supportBanner.label')} data-testid="support-banner">
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Group gap="xs" wrap="nowrap" style={{ flex: '1 1 16rem', minWidth: 0 }}>
          <IconLifebuoy size={20} aria-hidden style={{ flex: 'none' }} />
          <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
            {t('supportBanner.text', { member: user.fullName || user.email, supporter: session.supporterName, endsAt })}
          </Text>
        </Group>
        <Button size="compact-sm" color="dark" onClick={() => void end()} loading={ending}>
          {t('supportBanner.end')}
        </Button>
      </Group>
    </div>
  );
}
