-- Support access and support sessions (CONTRACT.md, "Support access"; docs/security.md, "Support
-- sessions"; modules/support).

-- An organization's consent to support: inherited down the tree, a child may only narrow it (the
-- effective consent is the organization's own setting AND that of every ancestor; no row: false).
CREATE TABLE support_access (
  organization_id  uuid PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  allowed          boolean NOT NULL,
  set_by_user_id   uuid REFERENCES users(id) ON DELETE SET NULL,
  set_at           timestamptz NOT NULL DEFAULT now()
);

-- A support session: a supporter (a userManager of a strict ancestor of the member's organization)
-- acting as a member, for a reason and a time. The supporter's name and address are kept as they
-- were (the member's profile lists them after the supporter is gone).
CREATE TABLE support_sessions (
  id                          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  member_user_id              uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  member_organization_id      uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  supporter_user_id           uuid REFERENCES users(id) ON DELETE SET NULL,
  supporter_email             text NOT NULL,
  supporter_name              text NOT NULL,
  supporter_organization_id   uuid REFERENCES organizations(id) ON DELETE SET NULL,
  -- the supporter's portal session that asked for it: only that session starts it, and its end ends it
  supporter_session_id_hash   text,
  reason                      text NOT NULL,
  minutes                     integer NOT NULL CHECK (minutes BETWEEN 5 AND 60),
  created_at                  timestamptz NOT NULL DEFAULT now(),
  started_at                  timestamptz,
  ends_at                     timestamptz NOT NULL,
  ended_at                    timestamptz
);
CREATE INDEX support_sessions_member_idx ON support_sessions (member_user_id, created_at DESC);
CREATE INDEX support_sessions_supporter_idx ON support_sessions (supporter_user_id) WHERE supporter_user_id IS NOT NULL;

-- The member's portal session a support session runs in: an ordinary session row that also
-- names its support session and the supporter's session (whose end ends it).
ALTER TABLE sessions
  ADD COLUMN support_session_id uuid REFERENCES support_sessions(id) ON DELETE CASCADE,
  ADD COLUMN supporter_session_id_hash text REFERENCES sessions(id_hash) ON DELETE CASCADE;
CREATE INDEX sessions_support_session_idx ON sessions (support_session_id) WHERE support_session_id IS NOT NULL;
CREATE INDEX sessions_supporter_session_idx ON sessions (supporter_session_id_hash) WHERE supporter_session_id_hash IS NOT NULL;

-- The provider's grants made during a support session (oidc/interaction.ts): tokens of such a
-- grant carry act (RFC 8693 §4.1) and its user-info supportedBy.
CREATE TABLE support_session_grants (
  grant_id            text PRIMARY KEY,
  support_session_id  uuid NOT NULL REFERENCES support_sessions(id) ON DELETE CASCADE
);
CREATE INDEX support_session_grants_session_idx ON support_session_grants (support_session_id);

-- An entry made during a support session names the supporter too (actor_kind 'support', actor_id
-- the support session's id), and lands in the trail of the supporter's organization as well.
ALTER TABLE audit_log
  ADD COLUMN supporter_user_id uuid,
  ADD COLUMN supporter_email text,
  ADD COLUMN supporter_name text,
  ADD COLUMN supporter_organization_path text;
CREATE INDEX audit_log_supporter_path_idx ON audit_log (supporter_organization_path, occurred_at DESC)
  WHERE supporter_organization_path IS NOT NULL;
