import { z } from 'zod';
import { returnFields, trimmedText } from './fields.js';

/**
 * Second factors: authenticator apps (TOTP, RFC 6238) with recovery codes, the second step of the
 * sign-in, and the organization policy that requires a second factor (docs/second-factors.md).
 */

/** Authentication context class references the provider issues in `acr` and accepts in `acr_values`. */
export const ACR_SINGLE_FACTOR = 'urn:partner-portal:acr:1fa';
export const ACR_MULTI_FACTOR = 'urn:partner-portal:acr:mfa';
export const ACR_VALUES = [ACR_SINGLE_FACTOR, ACR_MULTI_FACTOR] as const;

/** How many recovery codes a set holds. */
export const RECOVERY_CODE_COUNT = 10;

/** A six-digit code of the authenticator app, or a recovery code (spaces and dashes ignored). */
export const secondFactorCodeSchema = trimmedText('required_field', 64, 'second_factor_code_invalid');

/** The wire form of what the signed-in user has set up (GET /api/factors). */
export const passkeySchema = z.object({
  id: z.string(),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type Passkey = z.infer<typeof passkeySchema>;

export const passkeyNameSchema = trimmedText('required_field', 100, 'passkey_name_too_long');

export const factorsResponseSchema = z.object({
  totp: z.object({ enabled: z.boolean(), confirmed_at: z.string().nullable() }),
  passkeys: z.array(passkeySchema),
  recovery_codes_remaining: z.number().int(),
  /** whether an organization above the user (or the provider) requires a second factor */
  required: z.boolean(),
});
export type FactorsResponse = z.infer<typeof factorsResponseSchema>;

/** POST /api/factors/totp: a new secret to scan (QR) or type (manual key); active once confirmed. */
export const totpEnrolmentResponseSchema = z.object({
  secret: z.string(),
  otpauth_uri: z.string(),
  qr_code: z.string(),
});
export type TotpEnrolmentResponse = z.infer<typeof totpEnrolmentResponseSchema>;

export const totpConfirmRequestSchema = z.object({ code: secondFactorCodeSchema });
export type TotpConfirmRequest = z.infer<typeof totpConfirmRequestSchema>;

/** Recovery codes are shown once: in the answer that makes them. */
export const recoveryCodesResponseSchema = z.object({ recovery_codes: z.array(z.string()) });
export type RecoveryCodesResponse = z.infer<typeof recoveryCodesResponseSchema>;

/** POST /api/identity/second-factor: the second step of the sign-in. */
export const secondFactorLoginRequestSchema = z.object({ code: secondFactorCodeSchema });
export type SecondFactorLoginRequest = z.infer<typeof secondFactorLoginRequestSchema>;

/**
 * What the sign-in needs next, added to the login answer (absent or null: nothing, signed in):
 * `second_factor` — a code of the authenticator app or a recovery code;
 * `enrol_second_factor` — a second factor is required and the account has none: enrol one first.
 */
export const loginNextStepSchema = z.enum(['second_factor', 'enrol_second_factor']);
export type LoginNextStep = z.infer<typeof loginNextStepSchema>;

/** The organization a requirement comes from. */
export const policySourceSchema = z.object({
  organization_id: z.string(),
  organization_name: z.string(),
  organization_path: z.string(),
});

/**
 * GET /api/organizations/{id}/second-factor-policy: whether members of the organization (and of
 * its whole subtree) must use a second factor, and where that comes from: set on this
 * organization, or inherited from the highest ancestor that requires it.
 */
export const secondFactorPolicySchema = z.object({
  organization_id: z.string(),
  required: z.boolean(),
  set_here: z.boolean(),
  inherited_from: policySourceSchema.nullable(),
});
export type SecondFactorPolicy = z.infer<typeof secondFactorPolicySchema>;

export const secondFactorPolicyRequestSchema = z.object({
  required: z.boolean({ message: 'required_field' }),
});
export type SecondFactorPolicyRequest = z.infer<typeof secondFactorPolicyRequestSchema>;

/** POST /api/factors/confirm-identity: the password, or a code of the app or a recovery code. */
export const confirmIdentityRequestSchema = z.object({
  password: z.string().max(128).nullish(),
  code: secondFactorCodeSchema.nullish(),
});
export type ConfirmIdentityRequest = z.infer<typeof confirmIdentityRequestSchema>;

/**
 * WebAuthn options and responses are the JSON forms of the WebAuthn API (as made and read by
 * @simplewebauthn/server and @simplewebauthn/browser); the server checks them, so here they are
 * only bounded objects.
 */
const webauthnJson = z.record(z.string(), z.unknown());

/** POST /api/factors/passkeys: the browser's answer to the registration options, and a name. */
export const passkeyRegistrationRequestSchema = z.object({
  name: passkeyNameSchema.nullish(),
  response: webauthnJson,
});
export type PasskeyRegistrationRequest = z.infer<typeof passkeyRegistrationRequestSchema>;

export const passkeyRenameRequestSchema = z.object({ name: passkeyNameSchema });
export type PasskeyRenameRequest = z.infer<typeof passkeyRenameRequestSchema>;

export const passkeyIdParamsSchema = z.object({ passkeyId: z.uuid({ message: 'invalid_id' }) });

/** WebAuthn options for the browser (creation or request options, JSON form). */
export const webauthnOptionsSchema = webauthnJson;

/** POST /api/identity/passkey-login: sign in with a passkey alone (or as the second step). */
export const passkeyLoginRequestSchema = z.object({
  response: webauthnJson,
  remember: z.boolean().nullish(),
  ...returnFields,
});
export type PasskeyLoginRequest = z.infer<typeof passkeyLoginRequestSchema>;
