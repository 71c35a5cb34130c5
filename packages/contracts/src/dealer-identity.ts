import { z } from 'zod';
import { EMAIL_DOMAIN_PATTERN } from './email-domains.js';
import { trimmedText } from './fields.js';
import { rightsSchema } from './rights-schema.js';
import { emailSchema, languageCodeSchema, uuidSchema } from './schemas.js';

/**
 * Dealers bring their own identity (README, "Verified domains, single sign-on per organization and
 * access requests"): the payloads of verified domains, SSO connections and access requests, as
 * the operating contract fixes them. Fields beyond the contract's are optional in requests.
 */

// ---- verified domains -----------------------------------------------------------------------------

/**
 * A domain as the portal keeps it: ASCII (IDNA, punycode) form, lower case, without a leading `@`
 * or a trailing dot; null when it is no domain the portal accepts.
 */
export function toAsciiDomain(value: string): string | null {
  const trimmed = value.trim().replace(/^@/, '').replace(/\.$/, '').toLowerCase();
  if (!trimmed || /[\s/:?#@\\[\]]/.test(trimmed)) return null;
  let ascii: string;
  try {
    ascii = new URL(`http://${trimmed}`).hostname;
  } catch {
    return null;
  }
  return EMAIL_DOMAIN_PATTERN.test(ascii) || /^([a-z0-9-]+\.)+xn--[a-z0-9-]+$/.test(ascii) ? ascii : null;
}

/** A domain field: read by toAsciiDomain, 'invalid_domain' when it is none. */
export const domainField = z
  .string({ message: 'invalid_domain' })
  .max(300, { message: 'invalid_domain' })
  .transform((value, ctx) => {
    const domain = toAsciiDomain(value);
    if (domain === null) {
      ctx.addIssue({ code: 'custom', message: 'invalid_domain' });
      return z.NEVER;
    }
    return domain;
  });

export const domainClaimRequestSchema = z.object({ domain: domainField });
export type DomainClaimRequest = z.input<typeof domainClaimRequestSchema>;

/** The TXT record that proves control of a domain: publish `value` at `name`. */
export const domainVerificationSchema = z.object({ type: z.literal('TXT'), name: z.string(), value: z.string() });

export const domainClaimResponseSchema = z.object({
  domain: z.string(),
  verified: z.boolean(),
  verification: domainVerificationSchema,
});
export type DomainClaimResponse = z.infer<typeof domainClaimResponseSchema>;

export const domainVerifyResponseSchema = z.object({ domain: z.string(), verified: z.boolean() });

/** A domain that applies to an organization: its own, or an ancestor's (organization_id tells). */
export const organizationDomainSchema = z.object({
  domain: z.string(),
  verified: z.boolean(),
  organization_id: z.string(),
  /** the record to publish; only on the organization's own domains, for its managers */
  verification: domainVerificationSchema.optional(),
  /** when the record was last found (ISO 8601), or null */
  verified_at: z.string().nullable().optional(),
});
export type OrganizationDomain = z.infer<typeof organizationDomainSchema>;

export const organizationDomainParamsSchema = z.object({ organizationId: uuidSchema, domain: z.string().max(300) });

// ---- single sign-on per organization -------------------------------------------------------------------

const issuerField = z
  .string({ message: 'invalid_issuer' })
  .max(500, { message: 'invalid_issuer' })
  .refine(
    (v) => {
      try {
        const u = new URL(v);
        return (u.protocol === 'https:' || u.protocol === 'http:') && !u.search && !u.hash && !u.username && !u.password;
      } catch {
        return false;
      }
    },
    { message: 'invalid_issuer' },
  );

const ssoConnectionFields = {
  name: trimmedText('required_field', 100),
  issuer: issuerField,
  client_id: trimmedText('required_field', 300),
  client_secret: z.string().max(1000).nullish(),
  domains: z.array(domainField).min(1, { message: 'required_field' }).max(50),
  just_in_time: z.boolean().default(false),
  /** an inactive connection serves nobody but a manager's test sign-in (the operating contract) */
  active: z.boolean().default(true),
};

export const ssoConnectionCreateSchema = z.object(ssoConnectionFields);
export type SsoConnectionCreate = z.input<typeof ssoConnectionCreateSchema>;

/** PATCH: any of the fields; a `client_secret` of null makes the portal a public client. */
export const ssoConnectionPatchSchema = z.object({
  name: ssoConnectionFields.name.optional(),
  issuer: issuerField.optional(),
  client_id: ssoConnectionFields.client_id.optional(),
  client_secret: z.string().max(1000).nullish(),
  domains: ssoConnectionFields.domains.optional(),
  just_in_time: z.boolean().optional(),
  active: z.boolean().optional(),
});
export type SsoConnectionPatch = z.input<typeof ssoConnectionPatchSchema>;

export const ssoConnectionCreatedSchema = z.object({ id: z.string() });

/** A connection that applies to an organization: its own or an ancestor's (organization_id tells). Secrets are never returned. */
export const ssoConnectionSchema = z.object({
  id: z.string(),
  name: z.string(),
  issuer: z.string(),
  client_id: z.string(),
  domains: z.array(z.string()),
  just_in_time: z.boolean(),
  active: z.boolean(),
  organization_id: z.string(),
  /** whether a client secret is kept (false: a public client with PKCE) */
  has_client_secret: z.boolean().optional(),
  /** the connection of the EXTERNAL_IDP_* variables: changed by configuration only */
  configured: z.boolean().optional(),
});
export type SsoConnection = z.infer<typeof ssoConnectionSchema>;

/**
 * Who signs in through a connection once it is active (GET …/sso-connections/{id}/members): the
 * members it serves (its organization's subtree with an address of its domains, unless a nearer
 * connection below serves them), at most `MEMBERS_SHOWN`, and how many there are in all.
 */
export const ssoConnectionMembersSchema = z.object({
  total: z.number().int(),
  members: z.array(
    z.object({
      user_id: z.string(),
      email: z.string(),
      first_name: z.string(),
      last_name: z.string(),
      organization_id: z.string(),
      organization_name: z.string(),
    }),
  ),
});
export type SsoConnectionMembers = z.infer<typeof ssoConnectionMembersSchema>;

export const ssoConnectionParamsSchema = z.object({ organizationId: uuidSchema, connectionId: z.string().max(100) });

// ---- access requests -------------------------------------------------------------------------------------

export const accessRequestCreateSchema = z.object({
  email_address: emailSchema,
  first_name: trimmedText('first_name_required', 100),
  last_name: trimmedText('last_name_required', 100),
  message: z.string().max(2000).nullish(),
  language_code: languageCodeSchema.nullish(),
});
export type AccessRequestCreate = z.input<typeof accessRequestCreateSchema>;

export const accessRequestSchema = z.object({
  id: z.string(),
  email_address: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  message: z.string().nullable(),
  language_code: z.string(),
  /** the organization whose userManagers were asked */
  organization_id: z.string(),
  created_at: z.string(),
});
export type AccessRequest = z.infer<typeof accessRequestSchema>;

export const accessRequestIdParamsSchema = z.object({ id: uuidSchema });

export const accessRequestApproveSchema = z.object({
  /** where the invitation goes; by default the organization the request was routed to */
  organization_id: uuidSchema.nullish(),
  rights: rightsSchema.nullish(),
});
export type AccessRequestApprove = z.input<typeof accessRequestApproveSchema>;

export const accessRequestApprovedSchema = z.object({ invitation_id: z.string() });
