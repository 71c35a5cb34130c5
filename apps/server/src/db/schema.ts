import { sql } from 'drizzle-orm';
import { bigserial, boolean, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Drizzle's view of the tables created by the SQL migrations in apps/server/migrations.
 * The migrations are the source of truth; keep this file in step with them.
 */

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const settings = pgTable('settings', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const apps = pgTable('apps', {
  clientId: text('client_id').primaryKey(),
  name: text('name').notNull(),
  rightsSection: text('rights_section'),
  sortOrder: integer('sort_order').notNull().default(0),
  oidcMetadata: jsonb('oidc_metadata').$type<Record<string, unknown> | null>(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const tiles = pgTable('tiles', {
  id: text('id').primaryKey(),
  clientId: text('client_id').references(() => apps.clientId),
  requiredRight: text('required_right'),
  name: text('name').notNull(),
  descriptionI18nKey: text('description_i18n_key').notNull(),
  uri: text('uri').notNull(),
  icon: text('icon').notNull(),
  comingSoon: boolean('coming_soon').notNull().default(false),
  routerPath: text('router_path'),
  sortOrder: integer('sort_order').notNull().default(0),
});

export const features = pgTable('features', {
  name: text('name').primaryKey(),
  enabled: boolean('enabled').notNull().default(false),
});

export const notifications = pgTable('notifications', {
  id: uuid('id').primaryKey().defaultRandom(),
  text: text('text').notNull(),
  texts: jsonb('texts').$type<Record<string, string>>().notNull().default(sql`'{}'::jsonb`),
  active: boolean('active').notNull().default(true),
  startsAt: ts('starts_at'),
  endsAt: ts('ends_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const organizations = pgTable('organizations', {
  id: uuid('id').primaryKey().defaultRandom(),
  parentId: uuid('parent_id'),
  name: text('name').notNull(),
  path: text('path').notNull(),
  depth: integer('depth').notNull(),
  canCreateSubOrganization: boolean('can_create_sub_organization').notNull().default(false),
  subOrganizationCanHaveChildren: boolean('sub_organization_can_have_children').notNull().default(false),
  maxSubOrganizations: integer('max_sub_organizations'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const organizationApps = pgTable(
  'organization_apps',
  {
    organizationId: uuid('organization_id').notNull(),
    clientId: text('client_id').notNull(),
    availableForSubOrganizations: boolean('available_for_sub_organizations').notNull().default(true),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.clientId] })],
);

export const organizationEmailDomains = pgTable(
  'organization_email_domains',
  {
    organizationId: uuid('organization_id').notNull(),
    domain: text('domain').notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.domain] })],
);

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull(),
  firstName: text('first_name').notNull().default(''),
  lastName: text('last_name').notNull().default(''),
  languageCode: text('language_code').notNull().default('en'),
  passwordHash: text('password_hash'),
  externalIdp: text('external_idp'),
  externalSubject: text('external_subject'),
  isDeveloper: boolean('is_developer').notNull().default(false),
  newsletterOptIn: boolean('newsletter_opt_in').notNull().default(false),
  termsAcceptedAt: ts('terms_accepted_at'),
  passwordChangedAt: ts('password_changed_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const memberships = pgTable('memberships', {
  id: uuid('id').primaryKey().defaultRandom(),
  organizationId: uuid('organization_id').notNull(),
  userId: uuid('user_id').notNull(),
  email: text('email').notNull(),
  organizationPath: text('organization_path').notNull(),
  rights: jsonb('rights').$type<unknown>().notNull().default(sql`'{}'::jsonb`),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const invitations = pgTable('invitations', {
  id: uuid('id').primaryKey().defaultRandom(),
  organizationId: uuid('organization_id').notNull(),
  email: text('email').notNull(),
  state: text('state').$type<'PENDING' | 'ACCEPTED' | 'REVOKED' | 'EXPIRED' | 'REJECTED'>().notNull().default('PENDING'),
  codeHash: text('code_hash').notNull(),
  languageCode: text('language_code').notNull().default('en'),
  isExternalIdentityProvider: boolean('is_external_identity_provider').notNull().default(false),
  rights: jsonb('rights').$type<unknown>(),
  invitedBy: uuid('invited_by'),
  acceptedUserId: uuid('accepted_user_id'),
  createdAt: ts('created_at').notNull().defaultNow(),
  lastSentAt: ts('last_sent_at'),
  expiresAt: ts('expires_at').notNull(),
  acceptedAt: ts('accepted_at'),
  revokedAt: ts('revoked_at'),
});

export const singleUseTokens = pgTable('single_use_tokens', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').notNull(),
  purpose: text('purpose').notNull(),
  tokenHash: text('token_hash').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  expiresAt: ts('expires_at').notNull(),
  usedAt: ts('used_at'),
});

export const sessions = pgTable('sessions', {
  idHash: text('id_hash').primaryKey(),
  userId: uuid('user_id').notNull(),
  persistent: boolean('persistent').notNull().default(false),
  createdAt: ts('created_at').notNull().defaultNow(),
  lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
  expiresAt: ts('expires_at').notNull(),
});

export const deviceCookies = pgTable(
  'device_cookies',
  {
    idHash: text('id_hash').notNull(),
    userId: uuid('user_id').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.idHash, t.userId] })],
);

export const oidcPayloads = pgTable(
  'oidc_payloads',
  {
    model: text('model').notNull(),
    id: text('id').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    grantId: text('grant_id'),
    userCode: text('user_code'),
    uid: text('uid'),
    expiresAt: ts('expires_at'),
    consumedAt: ts('consumed_at'),
  },
  (t) => [primaryKey({ columns: [t.model, t.id] })],
);

export const oidcSigningKeys = pgTable('oidc_signing_keys', {
  kid: text('kid').primaryKey(),
  encrypted: text('encrypted').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  activatedAt: ts('activated_at').notNull().defaultNow(),
  retiredAt: ts('retired_at'),
});

export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  hits: integer('hits').notNull(),
  resetAt: ts('reset_at').notNull(),
});

export const mailOutbox = pgTable('mail_outbox', {
  id: uuid('id').primaryKey().defaultRandom(),
  recipient: text('recipient').notNull(),
  subject: text('subject').notNull(),
  textBody: text('text_body').notNull(),
  htmlBody: text('html_body').notNull(),
  kind: text('kind').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  sentAt: ts('sent_at'),
  error: text('error'),
});

export const auditLog = pgTable('audit_log', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  occurredAt: ts('occurred_at').notNull().defaultNow(),
  actorUserId: uuid('actor_user_id'),
  actorEmail: text('actor_email'),
  organizationId: uuid('organization_id'),
  organizationPath: text('organization_path'),
  action: text('action').notNull(),
  targetType: text('target_type').notNull(),
  targetId: text('target_id'),
  before: jsonb('before').$type<unknown>(),
  after: jsonb('after').$type<unknown>(),
  requestId: text('request_id'),
});
