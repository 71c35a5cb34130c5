import { z } from 'zod';
import { emailSchema, uuidSchema } from './schemas.js';

/**
 * The connection policy of an organization and the setup links of a dealer's IT person (the
 * operating contract, "Setup links for a dealer's IT person"; docs/integrations.md, "Setup links").
 */

/** PUT …/connection-policy: whether the organizations below this one may connect (SSO, SCIM, setup links). */
export const connectionPolicyUpdateSchema = z.object({ sub_organizations_may_connect: z.boolean() });
export type ConnectionPolicyUpdate = z.infer<typeof connectionPolicyUpdateSchema>;

/**
 * GET …/connection-policy: what the organization set (or inherits) for those below it, whether it
 * may connect itself, and the organization whose setting applies below it (null: none does).
 */
export const connectionPolicySchema = z.object({
  sub_organizations_may_connect: z.boolean(),
  may_connect: z.boolean(),
  set_by: z.string().nullable(),
  /** the name of the organization of `set_by` (the web app's "Set by …"), null with it */
  set_by_name: z.string().nullable().optional(),
});
export type ConnectionPolicy = z.infer<typeof connectionPolicySchema>;

/** What a setup link lets its holder do, each as its maker could. */
export const SETUP_CAPABILITIES = ['domains', 'sso', 'scim', 'audit_streams'] as const;
export type SetupCapability = (typeof SETUP_CAPABILITIES)[number];

/** The capabilities that need organizationManager (the rest, scim, needs userManager). */
export const ORGANIZATION_MANAGER_CAPABILITIES: readonly SetupCapability[] = ['domains', 'sso', 'audit_streams'];

export const SETUP_LINK_MAX_DAYS = 14;

export const setupLinkCreateSchema = z.object({
  email: emailSchema,
  capabilities: z
    .array(z.enum(SETUP_CAPABILITIES, { message: 'invalid_setup_capability' }))
    .min(1, { message: 'setup_capability_required' })
    .max(SETUP_CAPABILITIES.length)
    .transform((list) => [...new Set(list)]),
  expires_in_days: z
    .number({ message: 'invalid_expiry_days' })
    .int({ message: 'invalid_expiry_days' })
    .min(1, { message: 'invalid_expiry_days' })
    .max(SETUP_LINK_MAX_DAYS, { message: 'invalid_expiry_days' }),
});
export type SetupLinkCreate = z.input<typeof setupLinkCreateSchema>;

/** A new link: its url carries the token, shown in this answer and the e-mail only. */
export const setupLinkCreatedSchema = z.object({ id: z.string(), url: z.string(), expires_at: z.string() });
export type SetupLinkCreated = z.infer<typeof setupLinkCreatedSchema>;

export const SETUP_LINK_STATES = ['pending', 'opened', 'expired', 'revoked'] as const;
export type SetupLinkState = (typeof SETUP_LINK_STATES)[number];

export const setupLinkSchema = z.object({
  id: z.string(),
  email: z.string(),
  capabilities: z.array(z.enum(SETUP_CAPABILITIES)),
  state: z.enum(SETUP_LINK_STATES),
  expires_at: z.string(),
  /** the maker's user id (null once that user is gone) */
  created_by: z.string().nullable(),
  /** the maker's address, for the list (null once that user is gone) */
  created_by_email: z.string().nullable().optional(),
});
export type SetupLink = z.infer<typeof setupLinkSchema>;

export const setupLinkParamsSchema = z.object({ organizationId: uuidSchema, linkId: uuidSchema });

/** The token of a link in the setup page's calls (/api/setup/{token}). */
export const setupTokenParamsSchema = z.object({ token: z.string().min(1).max(200) });

/** GET /api/setup/{token}: what the link is, for the page its holder opens. */
export const setupLinkInfoSchema = z.object({
  organization_id: z.string(),
  organization_name: z.string(),
  capabilities: z.array(z.enum(SETUP_CAPABILITIES)),
  state: z.enum(['pending', 'opened']),
  /** the address the code goes to, masked (j***@dealer.example) */
  email: z.string(),
  expires_at: z.string(),
  /** whether this browser holds the link's setup session already */
  signed_in: z.boolean(),
});
export type SetupLinkInfo = z.infer<typeof setupLinkInfoSchema>;

/** POST /api/setup/{token}/session: the one-time code e-mailed to the link's address. */
export const setupSessionCreateSchema = z.object({
  code: z
    .string({ message: 'invalid_code' })
    .trim()
    .regex(/^\d{6,10}$/, { message: 'invalid_code' }),
});
export type SetupSessionCreate = z.input<typeof setupSessionCreateSchema>;

/** The setup page's cookie: separate from the portal's session cookie. */
export const SETUP_SESSION_COOKIE = 'pp_setup';
