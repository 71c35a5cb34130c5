-- Device cookies (docs/security.md, "Limits and thresholds"): a browser in which an account signed
-- in with its password carries a random cookie; only its hash is kept here, per account. Failed
-- passwords from other browsers then cannot lock that browser out of the account.
CREATE TABLE device_cookies (
  id_hash     text NOT NULL,
  user_id     uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  PRIMARY KEY (id_hash, user_id)
);
CREATE INDEX device_cookies_user_idx ON device_cookies (user_id);
CREATE INDEX device_cookies_expires_idx ON device_cookies (expires_at);
