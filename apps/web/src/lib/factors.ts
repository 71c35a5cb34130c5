import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  startRegistration,
  WebAuthnAbortService,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import type {
  LoginConsentResponse,
  Passkey,
  PasskeyLoginRequest,
  RecoveryCodesResponse,
  TotpEnrolmentResponse,
} from '@partner-portal/contracts';
import { api } from './api';
import { passkeysPossible } from './passkey-origin';

/**
 * Second factors used by more than one feature: setting up an authenticator app (from the profile,
 * or during a sign-in that must enrol) and passkeys (@simplewebauthn/browser) for the profile and
 * the login page. See docs/second-factors.md.
 */

/** POST /api/factors/totp — a new secret, its otpauth URI and QR code. */
export const startTotp = () => api.post<TotpEnrolmentResponse>('/factors/totp');

/** POST /api/factors/totp/confirm — the first code; answers the recovery codes (and, in a sign-in, where to go). */
export const confirmTotp = (code: string) =>
  api.post<RecoveryCodesResponse & { valid_return_url?: string | null }>('/factors/totp/confirm', { code });

/** Whether this browser, on this page, can use passkeys (never on an IP address: lib/passkey-origin.ts). */
export const passkeysSupported = () => passkeysPossible() && browserSupportsWebAuthn();
/** Whether the browser can offer passkeys in a field's suggestions here (conditional UI). */
export const passkeyAutofillSupported = async () => passkeysPossible() && browserSupportsWebAuthnAutofill();

/** Create a passkey in the browser from the portal's creation options; answers the browser's response. */
export async function createPasskeyCredential(): Promise<Record<string, unknown>> {
  const optionsJSON = await api.post<PublicKeyCredentialCreationOptionsJSON>('/factors/passkeys/registration-options');
  return (await startRegistration({ optionsJSON })) as unknown as Record<string, unknown>;
}

/**
 * POST /api/factors/passkeys — keep a new passkey under a name (none: the portal numbers it). The
 * first factor brings recovery codes; a sign-in that had to set up a factor also gets where to go.
 */
export const registerPasskey = (name: string | null, response: Record<string, unknown>) =>
  api.post<{ passkey: Passkey; recovery_codes: string[] | null; valid_return_url?: string | null }>('/factors/passkeys', {
    name,
    response,
  });

/**
 * Sign in with a passkey: with `autofill`, the browser offers the passkeys in the e-mail field's
 * suggestions (conditional UI) and this waits until one is picked; otherwise it asks at once.
 */
export async function signInWithPasskey(autofill: boolean, login: Omit<PasskeyLoginRequest, 'response'>): Promise<LoginConsentResponse> {
  const optionsJSON = await api.post<PublicKeyCredentialRequestOptionsJSON>('/identity/passkey-options');
  const response = await startAuthentication({ optionsJSON, useBrowserAutofill: autofill });
  return api.post<LoginConsentResponse>('/identity/passkey-login', { ...login, response });
}

/** Stop a waiting passkey request (leaving the e-mail step). */
export const cancelPasskeyRequest = () => WebAuthnAbortService.cancelCeremony();

/** Whether an error is the user (or the browser) cancelling a passkey ceremony. */
export function isPasskeyCancelled(err: unknown): boolean {
  const name = (err as { name?: string } | null)?.name;
  const code = (err as { code?: string } | null)?.code;
  return name === 'AbortError' || name === 'NotAllowedError' || code === 'ERROR_CEREMONY_ABORTED';
}
