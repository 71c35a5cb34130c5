import { use, useState } from 'react';
import { Button, Group, NumberInput, Stack, Text, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  SUPPORT_MINUTES_MAX,
  SUPPORT_MINUTES_MIN,
  SUPPORT_REASON_MAX,
  SUPPORT_REASON_MIN,
  type OrganizationMember,
} from '@partner-portal/contracts';
import { errorLines } from '@/lib/errors';
import { createSupportSession } from '../../api/support';
import { supportLocales } from '../../lib/locales';
import { ModalFrame, ProblemSummary } from '@/components/modal-frame';

/**
 * Start a support session as a member (docs/security.md, "Support sessions"): a reason and a
 * time; the session's address is then opened in this browser, which becomes the member's until
 * the time runs out or the banner's End.
 */
export function SupportMemberModal({ member, onClose }: { member: OrganizationMember; onClose: () => void }) {
  use(supportLocales());
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [minutes, setMinutes] = useState<number>(15);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string[] | null>(null);
  const trimmed = reason.trim();
  const reasonOk = trimmed.length >= SUPPORT_REASON_MIN && trimmed.length <= SUPPORT_REASON_MAX;
  const minutesOk = Number.isInteger(minutes) && minutes >= SUPPORT_MINUTES_MIN && minutes <= SUPPORT_MINUTES_MAX;

  const start = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const created = await createSupportSession(member.id, { reason: trimmed, minutes });
      window.location.assign(created.url);
    } catch (error) {
      setProblem(errorLines(error, t));
      setBusy(false);
    }
  };

  return (
    <ModalFrame title={t('support.start_title')} onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (reasonOk && minutesOk) void start();
        }}
      >
        <Stack gap="md">
          <Text size="sm">{t('support.start_intro', { email: member.email_address })}</Text>
          <Textarea
            label={t('support.reason')}
            description={t('support.reason_hint')}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            minRows={3}
            autosize
            required
            maxLength={SUPPORT_REASON_MAX}
            data-autofocus
          />
          <NumberInput
            label={t('support.minutes')}
            value={minutes}
            onChange={(value) => setMinutes(typeof value === 'number' ? value : Number(value))}
            min={SUPPORT_MINUTES_MIN}
            max={SUPPORT_MINUTES_MAX}
            step={5}
            allowDecimal={false}
            required
            maw={160}
          />
          <ProblemSummary lines={problem} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('cancel')}
            </Button>
            <Button type="submit" loading={busy} disabled={!reasonOk || !minutesOk}>
              {t('support.start')}
            </Button>
          </Group>
        </Stack>
      </form>
    </ModalFrame>
  );
}
