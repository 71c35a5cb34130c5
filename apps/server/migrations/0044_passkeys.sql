-- Passkeys (WebAuthn, docs/second-factors.md): several per user, named, with when each was last
-- used. The public key and signature counter are what the server needs to verify a sign-in.
CREATE TABLE passkeys (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id        uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  credential_id  text NOT NULL,
  public_key     bytea NOT NULL,
  counter        bigint NOT NULL DEFAULT 0,
  transports     text[] NOT NULL DEFAULT '{}',
  device_type    text NOT NULL,
  backed_up      boolean NOT NULL DEFAULT false,
  name           text NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  last_used_at   timestamptz,
  CONSTRAINT passkeys_credential_id_key UNIQUE (credential_id)
);
CREATE INDEX passkeys_user_idx ON passkeys (user_id);

-- WebAuthn challenges: each works once, for five minutes. key is the SHA-256 of a secret the
-- browser holds (a cookie) or of the session's id, with the purpose.
CREATE TABLE webauthn_challenges (
  key         text PRIMARY KEY,
  user_id     uuid REFERENCES users(id) ON DELETE CASCADE,
  challenge   text NOT NULL,
  expires_at  timestamptz NOT NULL
);
CREATE INDEX webauthn_challenges_expires_idx ON webauthn_challenges (expires_at);
