-- Partner Portal: initial schema. Identical for PostgreSQL and embedded PGlite.
-- Never edit a migration after it has landed; add a new numbered file instead.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- Settings: generated secrets and other values every instance must share.
CREATE TABLE settings (
  name        text PRIMARY KEY,
  value       text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- The app catalogue: the partner applications (OpenID Connect clients of the portal).
CREATE TABLE apps (
  client_id       text PRIMARY KEY,
  name            text NOT NULL,
  rights_section  text,              -- key of the app's section in the rights object, if any
  sort_order      integer NOT NULL DEFAULT 0,
  oidc_metadata   jsonb,             -- client metadata for oidc-provider (null: not a client yet)
  created_at      timestamptz NOT NULL DEFAULT now()
);

-- Tiles on the home page. A tile belongs to an app (shown to users with access, or with one
-- required right) or to no app (a link every signed-in user sees).
CREATE TABLE tiles (
  id                    text PRIMARY KEY,
  client_id             text REFERENCES apps(client_id) ON DELETE CASCADE,
  required_right        text,         -- a right of the app's section; null: access to the app
  name                  text NOT NULL,
  description_i18n_key  text NOT NULL,
  uri                   text NOT NULL,
  icon                  text NOT NULL,
  coming_soon           boolean NOT NULL DEFAULT false,
  router_path           text,
  sort_order            integer NOT NULL DEFAULT 0
);

CREATE TABLE features (
  name     text PRIMARY KEY,
  enabled  boolean NOT NULL DEFAULT false
);

CREATE TABLE notifications (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  text        text NOT NULL,              -- fallback text
  texts       jsonb NOT NULL DEFAULT '{}', -- per language code
  active      boolean NOT NULL DEFAULT true,
  starts_at   timestamptz,
  ends_at     timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- The organization tree, as a materialized path: 'nedap', 'nedap/dealer-a', 'nedap/dealer-a/north'.
-- COLLATE "C" makes the plain b-tree index serve prefix (subtree) searches and byte-order sorting.
CREATE TABLE organizations (
  id                                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  parent_id                           uuid REFERENCES organizations(id) ON DELETE RESTRICT,
  name                                text NOT NULL,
  path                                text COLLATE "C" NOT NULL,
  depth                               integer NOT NULL,
  can_create_sub_organization         boolean NOT NULL DEFAULT false,
  sub_organization_can_have_children  boolean NOT NULL DEFAULT false,
  max_sub_organizations               integer,          -- null: no maximum
  created_at                          timestamptz NOT NULL DEFAULT now(),
  updated_at                          timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT organizations_path_key UNIQUE (path),
  CONSTRAINT organizations_depth_check CHECK (depth >= 0 AND depth < 32),
  CONSTRAINT organizations_root_check CHECK ((parent_id IS NULL) = (depth = 0))
);
CREATE UNIQUE INDEX organizations_single_root ON organizations ((true)) WHERE parent_id IS NULL;
CREATE INDEX organizations_parent_idx ON organizations (parent_id);

CREATE TABLE organization_apps (
  organization_id                  uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  client_id                        text NOT NULL REFERENCES apps(client_id) ON DELETE CASCADE,
  available_for_sub_organizations  boolean NOT NULL DEFAULT true,
  PRIMARY KEY (organization_id, client_id)
);

CREATE TABLE organization_email_domains (
  organization_id  uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  domain           text NOT NULL,
  PRIMARY KEY (organization_id, domain)
);

CREATE TABLE users (
  id                    uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email                 text NOT NULL,
  first_name            text NOT NULL DEFAULT '',
  last_name             text NOT NULL DEFAULT '',
  language_code         text NOT NULL DEFAULT 'en' CHECK (language_code IN ('en','nl','de','fr','es')),
  password_hash         text,
  external_idp          text,
  external_subject      text,
  is_developer          boolean NOT NULL DEFAULT false,
  newsletter_opt_in     boolean NOT NULL DEFAULT false,
  terms_accepted_at     timestamptz,
  password_changed_at   timestamptz,
  created_at            timestamptz NOT NULL DEFAULT now(),
  updated_at            timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));
CREATE UNIQUE INDEX users_external_identity_key ON users (external_idp, external_subject) WHERE external_subject IS NOT NULL;

-- A user is a member of exactly one organization, with rights per application.
CREATE TABLE memberships (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id  uuid NOT NULL REFERENCES organizations(id) ON DELETE RESTRICT,
  user_id          uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  email            text NOT NULL,              -- copy of users.email for subtree search
  organization_path text COLLATE "C" NOT NULL, -- copy of organizations.path for subtree search
  rights           jsonb NOT NULL DEFAULT '{}',
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT memberships_user_key UNIQUE (user_id)
);
CREATE INDEX memberships_organization_idx ON memberships (organization_id);
CREATE INDEX memberships_path_email_idx ON memberships (organization_path, lower(email));
CREATE INDEX memberships_email_trgm_idx ON memberships USING gin (lower(email) gin_trgm_ops);

CREATE TABLE invitations (
  id                             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id                uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  email                          text NOT NULL,
  state                          text NOT NULL DEFAULT 'PENDING' CHECK (state IN ('PENDING','ACCEPTED','REVOKED','EXPIRED','REJECTED')),
  code_hash                      text NOT NULL,
  language_code                  text NOT NULL DEFAULT 'en' CHECK (language_code IN ('en','nl','de','fr','es')),
  is_external_identity_provider  boolean NOT NULL DEFAULT false,
  rights                         jsonb,
  invited_by                     uuid REFERENCES users(id) ON DELETE SET NULL,
  accepted_user_id               uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at                     timestamptz NOT NULL DEFAULT now(),
  last_sent_at                   timestamptz,
  expires_at                     timestamptz NOT NULL,
  accepted_at                    timestamptz,
  revoked_at                     timestamptz
);
CREATE INDEX invitations_organization_idx ON invitations (organization_id, state);
CREATE UNIQUE INDEX invitations_one_pending_per_email ON invitations (lower(email)) WHERE state = 'PENDING';
CREATE INDEX invitations_email_trgm_idx ON invitations USING gin (lower(email) gin_trgm_ops);

-- Single-use secrets sent in links (password reset). Only a hash is kept.
CREATE TABLE single_use_tokens (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id     uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  purpose     text NOT NULL,
  token_hash  text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz
);
CREATE INDEX single_use_tokens_user_idx ON single_use_tokens (user_id, purpose);

-- Portal sessions. The id is only kept as a hash; the cookie carries the secret.
CREATE TABLE sessions (
  id_hash       text PRIMARY KEY,
  user_id       uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  persistent    boolean NOT NULL DEFAULT false,
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_seen_at  timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz NOT NULL
);
CREATE INDEX sessions_user_idx ON sessions (user_id);
CREATE INDEX sessions_expires_idx ON sessions (expires_at);

-- oidc-provider storage (adapter), one row per model instance.
CREATE TABLE oidc_payloads (
  model        text NOT NULL,
  id           text NOT NULL,
  payload      jsonb NOT NULL,
  grant_id     text,
  user_code    text,
  uid          text,
  expires_at   timestamptz,
  consumed_at  timestamptz,
  PRIMARY KEY (model, id)
);
CREATE INDEX oidc_payloads_grant_idx ON oidc_payloads (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX oidc_payloads_uid_idx ON oidc_payloads (uid) WHERE uid IS NOT NULL;
CREATE INDEX oidc_payloads_user_code_idx ON oidc_payloads (user_code) WHERE user_code IS NOT NULL;
CREATE INDEX oidc_payloads_expires_idx ON oidc_payloads (expires_at) WHERE expires_at IS NOT NULL;

-- Signing keys of the provider, encrypted with the key-encryption key.
CREATE TABLE oidc_signing_keys (
  kid          text PRIMARY KEY,
  encrypted    text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  activated_at timestamptz NOT NULL DEFAULT now(),
  retired_at   timestamptz
);

-- Counters of rate limits, shared by every instance.
CREATE TABLE rate_limits (
  key       text PRIMARY KEY,
  hits      integer NOT NULL,
  reset_at  timestamptz NOT NULL
);

-- E-mails, kept when no SMTP_URL is configured (development) and as a record of what was sent.
CREATE TABLE mail_outbox (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  recipient   text NOT NULL,
  subject     text NOT NULL,
  text_body   text NOT NULL,
  html_body   text NOT NULL,
  kind        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  sent_at     timestamptz,
  error       text
);

CREATE TABLE audit_log (
  id               bigserial PRIMARY KEY,
  occurred_at      timestamptz NOT NULL DEFAULT now(),
  actor_user_id    uuid,
  actor_email      text,
  organization_id  uuid,
  organization_path text COLLATE "C",
  action           text NOT NULL,
  target_type      text NOT NULL,
  target_id        text,
  before           jsonb,
  after            jsonb,
  request_id       text
);
CREATE INDEX audit_log_path_idx ON audit_log (organization_path, occurred_at DESC);
