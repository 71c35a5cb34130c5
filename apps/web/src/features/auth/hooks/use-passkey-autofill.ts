import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { LoginConsentResponse } from '@partner-portal/contracts';
import { ApiError } from '@/lib/api';

// passkeys load when needed: the e-mail field comes first (docs/decisions/007-login-on-a-slow-connection.md)
const factors = () => import('@/lib/factors');

/**
 * A passkey signs in at the e-mail step: while `enabled`, the browser offers the passkeys in the
 * e-mail field's suggestions; a picked one signs in (`onSignedIn`), a failure says why (`onError`).
 */
export function usePasskeyAutofill({
  enabled,
  returnUrl,
  returnPath,
  onSignedIn,
  onError,
}: {
  enabled: boolean;
  returnUrl: string | null;
  returnPath: string | null;
  onSignedIn: (result: LoginConsentResponse) => Promise<void>;
  onError: (message: string) => void;
}): void {
  const { t } = useTranslation();
  useEffect(() => {
    if (!enabled) return;
    let active = true;
    void factors().then(async ({ passkeyAutofillSupported, signInWithPasskey, isPasskeyCancelled }) => {
      if (!active || !(await passkeyAutofillSupported()) || !active) return;
      try {
        const result = await signInWithPasskey(true, { return_url: returnUrl, return_path: returnPath });
        if (active) await onSignedIn(result);
      } catch (err) {
        if (active && !isPasskeyCancelled(err))
          onError(t(err instanceof ApiError && err.key === 'passkey_not_verified' ? 'passkey_not_verified' : 'error_try_again'));
      }
    });
    return () => {
      active = false;
      void factors().then(({ cancelPasskeyRequest }) => cancelPasskeyRequest());
    };
  }, [enabled, returnUrl, returnPath, onSignedIn, onError, t]);
}
