-- The connection policy and setup links (the operating contract, "Setup links for a dealer's IT
-- person"; apps/server/src/modules/connection-policy, apps/server/src/modules/setup-links).

-- What an organization allows the organizations strictly below it: when false, none of them may
-- create SSO connections, SCIM tokens or setup links (409 connections_not_allowed). No row: allowed.
CREATE TABLE connection_policies (
  organization_id                uuid PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  sub_organizations_may_connect  boolean NOT NULL,
  set_by                         uuid REFERENCES users(id) ON DELETE SET NULL,
  updated_at                     timestamptz NOT NULL DEFAULT now()
);

-- A link a manager hands to a dealer's IT person: the token of its url (≥ 128 random bits) is kept
-- only as its SHA-256; the e-mailed one-time code likewise (code_hash), with its expiry and the
-- wrong answers given to it; the setup session the code opens is a cookie kept as its hash too,
-- until session_expires_at (never past the link's expiry).
-- The link acts with its maker's rights as they are now, limited to its capabilities.
CREATE TABLE setup_links (
  id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id     uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  email               text NOT NULL,
  -- the maker's language when it was made: the link's e-mails to its address are in it
  language_code       text NOT NULL,
  capabilities        text[] NOT NULL CHECK (cardinality(capabilities) > 0
                        AND capabilities <@ ARRAY['domains', 'sso', 'scim', 'audit_streams']::text[]),
  token_hash          text NOT NULL,
  created_by          uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at          timestamptz NOT NULL DEFAULT now(),
  expires_at          timestamptz NOT NULL,
  revoked_at          timestamptz,
  opened_at           timestamptz,
  code_hash           text,
  code_expires_at     timestamptz,
  code_attempts       integer NOT NULL DEFAULT 0,
  session_hash        text,
  session_expires_at  timestamptz
);
CREATE UNIQUE INDEX setup_links_token_key ON setup_links (token_hash);
CREATE UNIQUE INDEX setup_links_session_key ON setup_links (session_hash) WHERE session_hash IS NOT NULL;
CREATE INDEX setup_links_organization_idx ON setup_links (organization_id, created_at);

-- The audit names a setup link as its actor (actor_kind 'setup_link', actor_id the link's id,
-- actor_email the address it was sent to).
ALTER TABLE audit_log DROP CONSTRAINT audit_log_actor_kind_check;
ALTER TABLE audit_log ADD CONSTRAINT audit_log_actor_kind_check
  CHECK (actor_kind IN ('person', 'service_account', 'directory', 'job', 'support', 'setup_link'));
