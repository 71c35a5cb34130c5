-- Identity (issue 3): consent remembered per user and client, and indexes for the clean-up job.

-- A user's consent to a client, remembered across sessions: the grant it points to is reused
-- while it lives, and the consented scopes let a new grant be made without asking again.
CREATE TABLE identity_consents (
  user_id     uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  client_id   text NOT NULL,
  grant_id    text,
  scopes      text NOT NULL DEFAULT '',
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, client_id)
);

CREATE INDEX single_use_tokens_expires_idx ON single_use_tokens (expires_at);
-- Grants and tokens of one account are found (and revoked) at password reset.
CREATE INDEX oidc_payloads_account_idx ON oidc_payloads ((payload->>'accountId')) WHERE payload ? 'accountId';
