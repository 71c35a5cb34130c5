import { z } from 'zod';

/**
 * Device sign-in (RFC 8628; docs/api.md, "Devices and modern clients"): the verification page
 * /device asks for the user code a device shows, names the application that asks, and sends the
 * person's decision to the provider. The calls below are the page's, for the signed-in person.
 */

/** The longest user code accepted (the provider's are 9 characters: XXXX-XXXX). */
export const USER_CODE_MAX_LENGTH = 40;

/** A user code as typed: letters, digits, spaces and dashes ('device_code_unknown' otherwise). */
export const userCodeField = z
  .string({ message: 'required_field' })
  .trim()
  .min(1, { message: 'required_field' })
  .max(USER_CODE_MAX_LENGTH, { message: 'device_code_unknown' });

export const deviceCodeBodySchema = z.object({ user_code: userCodeField });
export type DeviceCodeBody = z.infer<typeof deviceCodeBodySchema>;

/** The application a device signs in to: its name, and its logo and address when its registration has them. */
export const deviceClientSchema = z.object({
  client_id: z.string(),
  client_name: z.string(),
  logo_uri: z.string().nullable(),
  client_uri: z.string().nullable(),
});

/** A pending device sign-in, found by its user code. */
export const deviceRequestSchema = z.object({
  /** the user code as the device shows it (XXXX-XXXX) */
  user_code: z.string(),
  client: deviceClientSchema,
  /** the scopes the device asks for */
  scopes: z.array(z.string()),
});
export type DeviceRequest = z.infer<typeof deviceRequestSchema>;

export const DEVICE_DECISIONS = ['allow', 'deny'] as const;
export type DeviceDecision = (typeof DEVICE_DECISIONS)[number];

export const deviceDecisionBodySchema = z.object({
  user_code: userCodeField,
  decision: z.enum(DEVICE_DECISIONS, { message: 'required_field' }),
});
export type DeviceDecisionBody = z.infer<typeof deviceDecisionBodySchema>;

/** Where the browser goes to hand the decision to the provider (a page of the provider that posts it). */
export const deviceDecisionResponseSchema = z.object({ continue_url: z.string() });
export type DeviceDecisionResponse = z.infer<typeof deviceDecisionResponseSchema>;

/** How the provider sends the browser back to /device?result=…: the outcome the page shows. */
export const DEVICE_RESULTS = ['allowed', 'denied', 'unknown', 'used', 'failed'] as const;
export type DeviceResult = (typeof DEVICE_RESULTS)[number];
