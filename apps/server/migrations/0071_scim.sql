-- SCIM 2.0 provisioning (docs/integrations.md, "SCIM 2.0"): the bearer tokens of dealers'
-- directories, members a directory deactivates, the directory's own id of a member, and the
-- invitation of a member provisioned before they chose a password.

-- A directory's token: it acts on its organization's subtree, with the rights its creator held
-- when it was made (it changes no member who holds more). Only the token's SHA-256 is kept.
CREATE TABLE scim_tokens (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id  uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name             text NOT NULL,
  token_hash       text NOT NULL,
  rights           jsonb NOT NULL,
  is_developer     boolean NOT NULL DEFAULT false,
  created_by       uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  last_used_at     timestamptz
);
CREATE UNIQUE INDEX scim_tokens_hash_key ON scim_tokens (token_hash);
CREATE INDEX scim_tokens_organization_idx ON scim_tokens (organization_id);

-- A deactivated member keeps their account and membership but cannot sign in (password, external
-- login, passkey, refresh token); their sessions and tokens end when it is set. NULL: active.
ALTER TABLE users ADD COLUMN deactivated_at timestamptz;
-- The directory's id of the person (SCIM externalId, case-exact), as the directory sent it.
ALTER TABLE users ADD COLUMN scim_external_id text;

-- An invitation for a member who exists already without a way to sign in (provisioned by a
-- directory): accepting it gives that member their password instead of making a new account.
ALTER TABLE invitations ADD COLUMN member_id uuid REFERENCES memberships(id) ON DELETE CASCADE;
CREATE INDEX invitations_member_idx ON invitations (member_id) WHERE member_id IS NOT NULL;

-- The session cache (migration 0050) learns of a deactivation or reactivation like of any other
-- change of what a session allows: the same function, with deactivated_at among its columns.
CREATE OR REPLACE FUNCTION session_cache_users_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM session_cache_notify(ARRAY(
    SELECT n.id::text FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE (n.email, n.first_name, n.last_name, n.language_code, n.password_hash, n.external_idp, n.is_developer,
           n.must_change_password, n.password_changed_at, n.deactivated_at)
      IS DISTINCT FROM
          (o.email, o.first_name, o.last_name, o.language_code, o.password_hash, o.external_idp, o.is_developer,
           o.must_change_password, o.password_changed_at, o.deactivated_at)));
  RETURN NULL;
END $$;
