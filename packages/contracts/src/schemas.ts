import { z } from 'zod';
import { USER_LANGUAGES } from './languages.js';
import { loginNextStepSchema } from './factors.js';
import { rightsSchema } from './rights-schema.js';
import { currentSupportSessionSchema, supportedBySchema } from './support.js';
import { PASSWORD_MAX_LENGTH } from './passwords.js';
import { pageFields, pageQuery, requiredText, returnFields, trimmedText } from './fields.js';
import type { InactiveDays } from './inactive-days.js';

/**
 * Every request and response payload of the API (docs/product.md, "People, organizations and invitations" and "Calls"), with the specification's field
 * names. The server validates with these and the web app types its calls and forms with them.
 * Validation messages are translation keys (see errors.ts), so the web app can show them.
 */

export const uuidSchema = z.uuid({ message: 'invalid_id' });
export const languageCodeSchema = z.enum(USER_LANGUAGES, { message: 'invalid_language_code' });
export const emailSchema = trimmedText('fill_in_email', 100, 'invalid_email_address').pipe(z.email({ message: 'invalid_email_address' }));
/** The address typed at the sign-in (checked against the accounts, not as an address). */
const loginEmail = trimmedText('fill_all_required_fields', 100);

// ---- problem details (RFC 9457) -----------------------------------------------------------------

export const fieldErrorSchema = z.object({ message: z.string(), translation_key: z.string() });
export const problemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string().optional(),
  instance: z.string().optional(),
  i18NTranslationKey: z.string(),
  errors: z.record(z.string(), z.array(fieldErrorSchema)).optional(),
  /** human-readable messages of a business error, e.g. the allowed domains (docs/product.md, "Errors") */
  messages: z.array(z.string()).optional(),
  /** values for interpolation into the translated message */
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});
export type Problem = z.infer<typeof problemSchema>;

// ---- identity -----------------------------------------------------------------------------------

export const contextResponseSchema = z.object({
  login_hint: z.string().nullable(),
  idp: z.string().nullable(),
  tenant: z.string().nullable(),
  scopes: z.array(z.string()).nullable(),
  client: z.object({ client_id: z.string(), client_name: z.string().nullable() }).nullable(),
});
export type ContextResponse = z.infer<typeof contextResponseSchema>;

export const emailLoginRequestSchema = z.object({
  email: loginEmail,
  invitation_login: z.boolean().nullish(),
  /**
   * the visitor asks for the password step although the address's domain signs in at a provider
   * (an account elsewhere in the tree keeps its password; the password step still refuses every
   * address a provider serves: apps/server/src/modules/sso/routing.ts)
   */
  password_login: z.boolean().nullish(),
  ...returnFields,
});
export type EmailLoginRequest = z.infer<typeof emailLoginRequestSchema>;

export const loginRequestSchema = z.object({
  email: loginEmail,
  // up to the password policy's maximum (PASSWORD_MAX_LENGTH), so every password that can be set can sign in
  password: z.string({ message: 'fill_all_required_fields' }).min(1, { message: 'fill_all_required_fields' }).max(PASSWORD_MAX_LENGTH),
  remember: z.boolean().nullish(),
  ...returnFields,
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const loginConsentResponseSchema = z.object({
  error: z.string().nullable(),
  valid_return_url: z.string().nullable(),
  external_login: z.string().nullable(),
  /** the portal's addition: the sign-in needs a second step first (see factors.ts) */
  next_step: loginNextStepSchema.nullish(),
});
export type LoginConsentResponse = z.infer<typeof loginConsentResponseSchema>;

export const consentRequestSchema = z.object({
  deny: z.boolean().nullish(),
  remember: z.boolean().nullish(),
  return_url: z.string().max(2000),
});
export type ConsentRequest = z.infer<typeof consentRequestSchema>;

export const errorMessageSchema = z.object({
  display_mode: z.string().nullable(),
  ui_locales: z.string().nullable(),
  error: z.string().nullable(),
  error_description: z.string().nullable(),
  request_id: z.string().nullable(),
  activity_id: z.string().nullable(),
  redirect_uri: z.string().nullable(),
  response_mode: z.string().nullable(),
  client_id: z.string().nullable(),
  /** the values the error's translation names, e.g. {connection}: the single sign-on connection's name (beyond the specification) */
  params: z.record(z.string(), z.string()).optional(),
});
export type ErrorMessage = z.infer<typeof errorMessageSchema>;

export const logoutRequestSchema = z.object({ logoutId: z.string().max(2000).nullish() });
export const logoutResponseSchema = z.object({
  iframe_url: z.string().nullable(),
  post_logout_redirect_uri: z.string().nullable(),
});
export type LogoutResponse = z.infer<typeof logoutResponseSchema>;

export const userInfoSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  fullName: z.string(),
  languageCode: z.string(),
  organizationId: z.string().nullable(),
  organizationName: z.string().nullable(),
  organizationPath: z.string().nullable(),
  userManager: z.boolean(),
  organizationManager: z.boolean(),
  externalIdentityProvider: z.string().nullable(),
  isDeveloper: z.boolean(),
  manageUsersOrOrganizations: z.boolean(),
  /** the user's own rights (added by the portal: the rights editor disables the boxes they do not hold) */
  rights: rightsSchema.optional(),
  /** present (true) while the user must replace a generated password before anything else */
  mustChangePassword: z.boolean().optional(),
  /** present while the browser is in a support session (support.ts): who supports, until when */
  supportSession: currentSupportSessionSchema.optional(),
});
export type UserInfo = z.infer<typeof userInfoSchema>;

export const changePasswordRequestSchema = z.object({
  current_password: requiredText('fill_all_required_fields', PASSWORD_MAX_LENGTH),
  new_password: requiredText('fill_all_required_fields', PASSWORD_MAX_LENGTH),
  confirm_password: requiredText('fill_all_required_fields', PASSWORD_MAX_LENGTH),
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;

const personName = (key: string) => trimmedText(key, 100, 'invalid_member_name');
const requiredLanguageCode = z
  .string({ message: 'language_code_required' })
  .min(1, { message: 'language_code_required' })
  .pipe(languageCodeSchema);

export const updateProfileRequestSchema = z.object({
  first_name: personName('first_name_required'),
  last_name: personName('last_name_required'),
  language_code: requiredLanguageCode,
});
export type UpdateProfileRequest = z.infer<typeof updateProfileRequestSchema>;

export const forgotPasswordRequestSchema = z.object({ email_address: emailSchema });
export type ForgotPasswordRequest = z.infer<typeof forgotPasswordRequestSchema>;

export const resetPasswordRequestSchema = z.object({
  user_id: requiredText('user_id_required', 100),
  token: requiredText('token_required', 500),
  password: requiredText('fill_all_required_fields', PASSWORD_MAX_LENGTH),
  confirm_password: requiredText('fill_all_required_fields', PASSWORD_MAX_LENGTH),
});
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequestSchema>;

export const validateTokenRequestSchema = z.object({
  user_id: requiredText('user_id_required', 100),
  token: requiredText('token_required', 500),
});
export type ValidateTokenRequest = z.infer<typeof validateTokenRequestSchema>;
export const validateTokenResponseSchema = z.object({ is_valid: z.boolean(), reset_token: z.string().nullable() });
export type ValidateTokenResponse = z.infer<typeof validateTokenResponseSchema>;

// ---- organizations ------------------------------------------------------------------------------

export const appSchema = z.object({ client_id: z.string(), name: z.string(), available_for_sub_organizations: z.boolean() });
export type App = z.infer<typeof appSchema>;

export const subOrganizationSchema = z.object({ id: z.string(), name: z.string(), path: z.string(), can_be_deleted: z.boolean() });
export type SubOrganization = z.infer<typeof subOrganizationSchema>;

/** Which organization of the subtree a member or invitation belongs to (given by the subtree search). */
const subtreePlacementFields = { organization_name: z.string().optional(), organization_path: z.string().optional() };

export const organizationMemberSchema = z.object({
  id: z.string(),
  organization_id: z.string(),
  email_address: z.string(),
  first_name: z.string().optional(),
  last_name: z.string().optional(),
  ...subtreePlacementFields,
  /** when the user last signed in (ISO 8601); null: never */
  last_sign_in_at: z.string().nullable().optional(),
  /** whether the member has a second factor (an authenticator app or a passkey); given to userManagers */
  has_second_factor: z.boolean().optional(),
  /** the member's rights, given to userManagers: the web app tells beforehand whether they may manage the member (delegation.ts) */
  rights: rightsSchema.optional(),
});
export type OrganizationMember = z.infer<typeof organizationMemberSchema>;

export const invitationStateSchema = z.enum(['PENDING', 'ACCEPTED', 'REVOKED', 'EXPIRED', 'REJECTED']);
export type InvitationState = z.infer<typeof invitationStateSchema>;

export const invitationSchema = z.object({
  invitation_id: z.string(),
  organization_id: z.string(),
  email_address: z.string(),
  invitation_state: invitationStateSchema,
  created_at: z.string(),
  last_sent_at: z.string().nullable(),
  language_code: z.string(),
  is_external_identity_provider: z.boolean(),
  /** when a pending invitation's link stops working (an expired one's: stopped) */
  expires_at: z.string().optional(),
  ...subtreePlacementFields,
});
export type Invitation = z.infer<typeof invitationSchema>;

export const organizationSchema = z.object({
  id: z.string(),
  parent_id: z.string().nullable(),
  name: z.string(),
  path: z.string(),
  can_create_sub_organization: z.boolean(),
  sub_organization_can_have_children: z.boolean(),
  sub_organizations: z.array(subOrganizationSchema),
  pending_invitations: z.array(invitationSchema),
  /** invitations past their expiry (state EXPIRED) that a userManager may send again; none for an address with a live invitation or an account */
  expired_invitations: z.array(invitationSchema).optional(),
  members: z.array(organizationMemberSchema),
  apps: z.array(appSchema),
  allowed_email_domains: z.array(z.string()),
});
export type Organization = z.infer<typeof organizationSchema>;

export interface OrganizationNode {
  key: string;
  label: string;
  parent_id: string | null;
  path: string;
  can_create_sub_organization: boolean;
  sub_organization_can_have_children: boolean;
  pending_invitations: number;
  members: number;
  apps: string[];
  allowed_email_domains: string[];
  /** present (true) where the organization itself requires a second factor of its subtree */
  second_factor_required?: boolean;
  children: OrganizationNode[];
}
export const organizationNodeSchema: z.ZodType<OrganizationNode> = z.lazy(() =>
  z.object({
    key: z.string(),
    label: z.string(),
    parent_id: z.string().nullable(),
    path: z.string(),
    can_create_sub_organization: z.boolean(),
    sub_organization_can_have_children: z.boolean(),
    pending_invitations: z.number().int(),
    members: z.number().int(),
    apps: z.array(z.string()),
    allowed_email_domains: z.array(z.string()),
    second_factor_required: z.boolean().optional(),
    children: z.array(organizationNodeSchema),
  }),
);

// Recursive: registered with an id so the OpenAPI document can reference it as a component.
z.globalRegistry.add(organizationNodeSchema, { id: 'OrganizationNode' });

export const organizationNameSchema = trimmedText('organization_name_required', 100, 'invalid_organization_name');

export const createOrganizationRequestSchema = z.object({
  parent_organization_id: uuidSchema,
  name: organizationNameSchema,
  client_ids: z.array(z.string().max(100)).max(100).default([]),
  can_create_sub_organization: z.boolean().default(false),
});
export type CreateOrganizationRequest = z.input<typeof createOrganizationRequestSchema>;
export const createOrganizationResponseSchema = z.object({ id: z.string() });

export const updateOrganizationRequestSchema = z.object({ name: organizationNameSchema });
export type UpdateOrganizationRequest = z.infer<typeof updateOrganizationRequestSchema>;

export const changeOrganizationAppsRequestSchema = z.object({
  client_ids: z.array(z.string().max(100)).max(100),
  /** client ids, of those given, that sub-organizations may also receive (default: all given) */
  available_for_sub_organizations: z.array(z.string().max(100)).max(100).optional(),
});
export type ChangeOrganizationAppsRequest = z.infer<typeof changeOrganizationAppsRequestSchema>;

export const allowedEmailDomainsRequestSchema = z.object({
  /** each read by readEmailDomain; the server refuses the first invalid one by name ('invalid_email_domain', params.domain) */
  allowed_email_domains: z.array(z.string().max(300)).max(50),
});

// ---- invitations --------------------------------------------------------------------------------

export const invitationRequestSchema = z.object({
  email_address: emailSchema,
  language_code: languageCodeSchema.nullish(),
  rights: rightsSchema.nullish(),
  is_external_identity_provider: z.boolean().nullish(),
});
export type InvitationRequest = z.input<typeof invitationRequestSchema>;
export const invitationCreatedResponseSchema = z.object({ invitation: invitationSchema, organizationId: z.string() });

export const acceptInvitationRequestSchema = z.object({
  invitation_code: requiredText('token_required', 500),
  email_address: z.string().max(100).optional(),
  first_name: personName('first_name_required'),
  last_name: personName('last_name_required'),
  language_code: requiredLanguageCode,
  password: z.string().max(PASSWORD_MAX_LENGTH).nullish(),
  password_confirmation: z.string().max(PASSWORD_MAX_LENGTH).nullish(),
  opt_in_for_newsletter: z.boolean().default(false),
  // not a field of the wire contract: accepting the invitation is the consent, recorded with its
  // time (users.terms_accepted_at); the registration form still asks for the tick first. A client
  // that sends false has not agreed, and is refused.
  accept_agreement: z.boolean().optional(),
});
export type AcceptInvitationRequest = z.input<typeof acceptInvitationRequestSchema>;

// ---- members ------------------------------------------------------------------------------------

export const changeRightsRequestSchema = z.object({ rights: rightsSchema });
export type ChangeRightsRequest = z.input<typeof changeRightsRequestSchema>;

export const memberRightsResponseSchema = z.object({
  member_id: z.string(),
  organization_id: z.string(),
  email_address: z.string(),
  is_provider_organization: z.boolean(),
  organization_client_ids: z.array(z.string()),
  rights: rightsSchema,
});

export const inactiveDaysSchema = z
  .enum(['30', '90', '180', '365'], { message: 'validation_failed' })
  .transform((n) => Number(n) as InactiveDays);

export const memberSearchQuerySchema = z.object({
  organizationId: uuidSchema,
  q: z.string().max(100).default(''),
  page: pageQuery,
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
  /** only members not signed in for this many days (never signed in counts as inactive); pending invitations are left out */
  inactiveDays: inactiveDaysSchema.optional(),
});
export const memberSearchResponseSchema = z.object({
  ...pageFields,
  /** pending invitations matching (the invitations list is paged like the members list) */
  invitations_total: z.number().int().optional(),
  /** true when more members match than `total` (counting stops at 1,000) */
  total_capped: z.boolean().optional(),
  members: z.array(organizationMemberSchema),
  invitations: z.array(invitationSchema),
});

// ---- portal -------------------------------------------------------------------------------------

export const tileSchema = z.object({
  name: z.string(),
  description_i18_nkey: z.string(),
  uri: z.string(),
  icon: z.string(),
  coming_soon: z.boolean(),
  router_path: z.string().nullable(),
});
export type Tile = z.infer<typeof tileSchema>;
export const notificationSchema = z.object({ text: z.string() });
export type Notification = z.infer<typeof notificationSchema>;
export const featuresSchema = z.object({
  control_tower_enabled: z.boolean(),
  control_tower_enabled_for_non_nedap_users: z.boolean(),
  ordering_tools_enabled: z.boolean(),
  ordering_tools_enabled_for_non_nedap_users: z.boolean(),
});

/** GET /api/portal/configuration: the site settings the operator configures (README), shown before login. */
export const portalConfigurationSchema = z.object({
  privacy_statement_url: z.string(),
  eula_url: z.string(),
  sales_contact_email: z.string(),
  login_video_url: z.string(),
});
export type PortalConfiguration = z.infer<typeof portalConfigurationSchema>;

export const healthResponseSchema = z.object({ status: z.enum(['ok', 'unavailable']) });

// ---- organization administration: parameters, audit, export --------------------------

export const organizationIdParamsSchema = z.object({ organizationId: uuidSchema });
export const invitationIdParamsSchema = z.object({ invitationId: uuidSchema });
export const memberIdParamsSchema = z.object({ memberId: uuidSchema });
export const organizationMemberParamsSchema = z.object({ organizationId: uuidSchema, memberId: uuidSchema });

/** PATCH …/can-create-sub-organizations?canCreateSubOrganizations=true|false */
export const canCreateSubOrganizationsQuerySchema = z.object({
  canCreateSubOrganizations: z.enum(['true', 'false'], { message: 'validation_failed' }).transform((v) => v === 'true'),
});

/** GET /api/invitations/{id}?code=…: the link's code is needed to read an invitation. */
export const invitationCodeQuerySchema = z.object({ code: z.string().max(200).optional() });

export const memberExportQuerySchema = z.object({
  output: z.enum(['csv', 'xlsx'], { message: 'validation_failed' }).default('csv'),
  organizationId: uuidSchema.optional(),
});

/**
 * A day (YYYY-MM-DD, UTC) of the audit filter's date range: a calendar day of the years 1 to 9999
 * (PostgreSQL has no year 0; its `date` would refuse it with an error instead of an answer).
 */
const auditDaySchema = z.iso.date({ message: 'invalid_date' }).refine((day) => !day.startsWith('0000-'), { message: 'invalid_date' });

const auditFilterFields = {
  organizationId: uuidSchema.optional(),
  action: z
    .string()
    .max(100, { message: 'validation_failed' })
    .regex(/^[a-z_]+(\.[a-z_]+)*$/, { message: 'validation_failed' })
    .optional(),
  actor: z.string().trim().max(200, { message: 'validation_failed' }).optional(),
  from: auditDaySchema.optional(),
  to: auditDaySchema.optional(),
};
const fromNotAfterTo = (f: { from?: string | undefined; to?: string | undefined }) => !f.from || !f.to || f.from <= f.to;

/**
 * The audit log's filters, all optional: `organizationId` chooses the subtree (default: the
 * actor's organization); `action` one action, its refusals (`action.refused`) included; `actor`
 * part of the actor's e-mail address (or of a service account's name), in any letter case; `from`/`to` days (UTC), both included.
 */
export const auditFilterSchema = z.object(auditFilterFields).refine(fromNotAfterTo, { message: 'validation_failed', path: ['to'] });
export type AuditFilter = z.infer<typeof auditFilterSchema>;

export const auditQuerySchema = z
  .object({ ...auditFilterFields, page: pageQuery })
  .refine(fromNotAfterTo, { message: 'validation_failed', path: ['to'] });

export const auditEntrySchema = z.object({
  id: z.string(),
  occurred_at: z.string(),
  actor_user_id: z.string().nullable(),
  actor_email: z.string().nullable(),
  /** the service account that made the change (then actor_user_id and actor_email are null, actor_name is its name) */
  actor_service_account_id: z.string().nullable().optional(),
  organization_id: z.string().nullable(),
  organization_path: z.string().nullable(),
  action: z.string(),
  target_type: z.string(),
  target_id: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  request_id: z.string().nullable(),
  /** the names the entry's sentence needs, as they are now (null when gone, e.g. a removed member's) */
  actor_name: z.string().nullable(),
  /** the member or the invitation the entry is about */
  subject_name: z.string().nullable(),
  subject_email: z.string().nullable(),
  organization_name: z.string().nullable(),
  /** the supporter of an entry made during a support session (actor_kind support): "supporter as member" */
  supported_by: supportedBySchema.nullable().optional(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditResponseSchema = z.object({
  ...pageFields,
  entries: z.array(auditEntrySchema),
});

export const organizationExportResponseSchema = z.object({
  exported_at: z.string(),
  organizations: z.number().int(),
  tree: organizationNodeSchema,
});
