-- Signing keys of more than one algorithm: RS256 (every client's default) and, when configured
-- (OIDC_SIGNING_ALGS), ES256 for clients that register id_token_signed_response_alg ES256. Each
-- algorithm has its own keys and its own rotation (apps/server/src/oidc/keys.ts).
ALTER TABLE oidc_signing_keys ADD COLUMN alg text NOT NULL DEFAULT 'RS256' CHECK (alg IN ('RS256', 'ES256'));
