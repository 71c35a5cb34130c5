import { z } from 'zod';
import { trimmedText } from './fields.js';
import { emptyRights, type Rights } from './rights.js';
import { uuidSchema } from './schemas.js';

/**
 * Service accounts (docs/integrations.md, "Service accounts"): the provider's applications call
 * /api as machines. An account belongs to one organization and acts on its subtree with the
 * rights it was given (userManager, organizationManager); it gets bearer tokens from
 * POST /connect/token (client_credentials) with the scope SERVICE_ACCOUNT_SCOPE.
 */

/** Whether a client id is a service account's (they are `sa.<uuid>`: a dot no registered client's id holds). */
export function isServiceAccountClientId(clientId: unknown): boolean {
  return typeof clientId === 'string' && /^sa\.[0-9a-f-]{36}$/.test(clientId);
}

/**
 * The rights a service account holds, as a member's rights (contracts rights.ts): the partner
 * portal's boxes of the managers it was given, and nothing else. What it may hand on is read from
 * these by the rules of delegation.ts, the same as for a person.
 */
export function serviceAccountRights(account: { user_manager: boolean; organization_manager: boolean }): Rights {
  const rights = emptyRights();
  rights.partner_portal.user_user_manager = account.user_manager;
  rights.partner_portal.user_sub_organization_manager = account.organization_manager;
  return rights;
}

/**
 * POST /api/organizations/{organizationId}/service-accounts: the rights not given are not held. An
 * account without either right could make no call at all (every call it may use needs a manager
 * right: modules/scope/access.ts), so one of them is required: 400 service_account_needs_a_right on
 * both fields.
 */
export const serviceAccountCreateSchema = z
  .object({
    name: trimmedText('required_field', 100),
    user_manager: z.boolean({ message: 'validation_failed' }).default(false),
    organization_manager: z.boolean({ message: 'validation_failed' }).default(false),
  })
  .superRefine((account, ctx) => {
    if (account.user_manager || account.organization_manager) return;
    for (const field of ['user_manager', 'organization_manager'])
      ctx.addIssue({ code: 'custom', message: 'service_account_needs_a_right', path: [field] });
  });
export type ServiceAccountCreate = z.input<typeof serviceAccountCreateSchema>;

/** The answer of its creation: the only time the secret is shown. */
export const serviceAccountCreatedSchema = z.object({
  id: z.string(),
  client_id: z.string(),
  client_secret: z.string(),
});
export type ServiceAccountCreated = z.infer<typeof serviceAccountCreatedSchema>;

/** A service account as GET …/service-accounts lists it (never its secret). */
export const serviceAccountSchema = z.object({
  id: z.string(),
  name: z.string(),
  client_id: z.string(),
  organization_id: z.string(),
  user_manager: z.boolean(),
  organization_manager: z.boolean(),
  created_at: z.string(),
  /** when a request last came with one of its tokens (to the minute), or null */
  last_used_at: z.string().nullable(),
});
export type ServiceAccount = z.infer<typeof serviceAccountSchema>;

export const serviceAccountParamsSchema = z.object({ organizationId: uuidSchema, serviceAccountId: uuidSchema });
