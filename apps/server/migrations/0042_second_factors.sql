-- Second factors (docs/second-factors.md).

-- An authenticator app (TOTP, RFC 6238) per user. The secret is kept encrypted (JWE, A256GCM)
-- under a key derived from KEY_ENCRYPTION_KEY; it counts once confirmed with a first code.
-- last_used_step refuses a code that was already used (replay within its 30-second window).
CREATE TABLE user_totp (
  user_id          uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  secret_encrypted text NOT NULL,
  confirmed_at     timestamptz,
  last_used_step   bigint,
  created_at       timestamptz NOT NULL DEFAULT now()
);

-- Recovery codes: 128 random bits each, kept as SHA-256; each works once.
CREATE TABLE recovery_codes (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id    uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  code_hash  text NOT NULL,
  used_at    timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX recovery_codes_user_idx ON recovery_codes (user_id);

-- A sign-in between the password and the second step: no session exists yet. The browser holds
-- the secret in a cookie; only its SHA-256 is kept. It lives ten minutes.
CREATE TABLE second_step_logins (
  id_hash     text PRIMARY KEY,
  user_id     uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  persistent  boolean NOT NULL,
  return_to   text,
  must_enrol  boolean NOT NULL DEFAULT false,
  expires_at  timestamptz NOT NULL
);
CREATE INDEX second_step_logins_expires_idx ON second_step_logins (expires_at);

-- How a session was authenticated (RFC 8176 amr values; empty: a password or an external login
-- alone) and when a password or second factor was last checked in it (re-authentication).
ALTER TABLE sessions
  ADD COLUMN amr text[] NOT NULL DEFAULT '{}',
  ADD COLUMN authenticated_at timestamptz NOT NULL DEFAULT now();
