import { z } from 'zod';
import { trimmedText } from './fields.js';
import { uuidSchema } from './schemas.js';

/**
 * SCIM 2.0 provisioning (docs/integrations.md, "SCIM 2.0"): the payloads of the /api calls that
 * manage a directory's bearer tokens, and the names the SCIM endpoints ($PUBLIC_URL/scim/v2) share
 * with their clients. The SCIM resources themselves are RFC 7643's, not zod schemas.
 */

/** The schema extension that names a user's organization (an organization of the token's subtree). */
export const SCIM_ORGANIZATION_EXTENSION = 'urn:partner-portal:scim:schemas:extension:organization:1.0:User';

/** The most tokens one organization keeps (a directory needs one; a switch of directories two). */
export const MAX_SCIM_TOKENS_PER_ORGANIZATION = 10;

export const scimTokenCreateSchema = z.object({ name: trimmedText('required_field', 100) });
export type ScimTokenCreate = z.input<typeof scimTokenCreateSchema>;

/** A new token: `token` is shown this once and kept only as a hash. */
export const scimTokenCreatedSchema = z.object({ id: z.string(), token: z.string() });
export type ScimTokenCreated = z.infer<typeof scimTokenCreatedSchema>;

/** A token as listed: never its secret. */
export const scimTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  organization_id: z.string(),
  created_at: z.string(),
  /** when a directory last called with it (to the minute), or null */
  last_used_at: z.string().nullable(),
  /** who made it, while they are a user */
  created_by_email: z.string().nullable(),
});
export type ScimToken = z.infer<typeof scimTokenSchema>;

export const scimTokenParamsSchema = z.object({ organizationId: uuidSchema, tokenId: uuidSchema });
