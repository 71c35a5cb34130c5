import { useEffect } from 'react';
import type { LoginConsentResponse } from '@partner-portal/contracts';
import { ApiError } from '@/lib/api';
import { passkeysPossible } from '@/lib/passkey-origin';

// passkeys load when needed: the e-mail field comes first (docs/decisions/007-login-on-a-slow-connection.md)
const factors = () => import('@/lib/factors');

/**
 * A passkey signs in at the e-mail step: while `enabled`, the browser offers the passkeys in the
 * e-mail field's suggestions (only where passkeys can work: lib/passkey-origin.ts); a picked one
 * signs in (`onSignedIn`). The person did not ask for this request, so its failures stay silent
 * (a browser that refuses it, a request that cannot start), except a picked passkey the portal
 * does not accept (`onError`, with the message's translation key).
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
  onError: (key: string) => void;
}): void {
  useEffect(() => {
    if (!enabled || !passkeysPossible()) return;
    let active = true;
    void factors().then(async ({ passkeyAutofillSupported, signInWithPasskey }) => {
      if (!active || !(await passkeyAutofillSupported()) || !active) return;
      try {
        const result = await signInWithPasskey(true, { return_url: returnUrl, return_path: returnPath });
        if (active) await onSignedIn(result);
      } catch (err) {
        if (active && err instanceof ApiError && err.key === 'passkey_not_verified') onError('passkey_not_verified');
      }
    });
    return () => {
      active = false;
      void factors().then(({ cancelPasskeyRequest }) => cancelPasskeyRequest());
    };
  }, [enabled, returnUrl, returnPath, onSignedIn, onError]);
}
