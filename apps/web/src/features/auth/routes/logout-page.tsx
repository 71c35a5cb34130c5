import { useEffect, useState } from 'react';
import { Loader, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { paths } from '@/lib/paths';
import { clearSession } from '@/lib/session';
import { logout } from '../api/logout';

/** How long the front-channel logout frame may take before the browser moves on. */
const FRAME_WAIT_MS = 1500;

/**
 * /logout (docs/product.md, "Flows and states"): ends the session, clears everything the app keeps, resets the language to
 * en-GB, lets clients log out through the hidden frame, then goes on to the client's
 * post-logout address or to /login.
 */
export function LogoutPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const logoutId = params.get('logoutId');
  const [frame, setFrame] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    void (async () => {
      const result = await logout(logoutId).catch(() => null);
      await clearSession();
      if (cancelled) return;
      const go = () => {
        // the post-logout address may be a server page (the provider's logout confirmation) or a
        // client application: a full navigation; only the portal's own login page stays in the app
        const target = result?.post_logout_redirect_uri;
        const url = target ? new URL(target, window.location.origin) : null;
        if (url && !(url.origin === window.location.origin && url.pathname === paths.login)) window.location.assign(url.toString());
        else void navigate(paths.login, { replace: true });
      };
      if (result?.iframe_url) {
        setFrame(result.iframe_url);
        setTimeout(go, FRAME_WAIT_MS);
      } else go();
    })();
    return () => {
      cancelled = true;
    };
  }, [logoutId, navigate]);

  return (
    <Stack align="center" gap="md" py="lg" role="status" aria-live="polite">
      <Title order={1} size="h3">
        {t('logging_out')}
      </Title>
      <Loader aria-hidden />
      <Text size="sm" c="dimmed">
        {t('logging_out_hint')}
      </Text>
      {frame && <iframe src={frame} title={t('logout_frame_title')} hidden style={{ display: 'none' }} />}
    </Stack>
  );
}
