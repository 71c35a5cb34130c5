-- Service accounts (apps/server/src/modules/service-accounts, docs/integrations.md "Service accounts"):
-- the provider's applications call /api as machines. An account is an OpenID Connect client of the
-- client_credentials grant (its client id is 'sa.' || id), found by the provider's adapter
-- (apps/server/src/oidc/adapter.ts); its secret is kept only as its SHA-256 (the secret carries 256
-- random bits), compared by apps/server/src/oidc/service-account-clients.ts. It acts on its
-- organization's subtree with the two manager rights it was given.
CREATE TABLE service_accounts (
  id                    uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id       uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name                  text NOT NULL,
  client_id             text NOT NULL UNIQUE,
  secret_hash           text NOT NULL,
  user_manager          boolean NOT NULL DEFAULT false,
  organization_manager  boolean NOT NULL DEFAULT false,
  created_by            uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at            timestamptz NOT NULL DEFAULT now(),
  last_used_at          timestamptz                       -- to the minute: written at most once a minute
);
CREATE INDEX service_accounts_organization_idx ON service_accounts (organization_id, created_at);

-- A deleted account's client leaves every instance's client cache at once (migration 0053): the
-- same announcement as a changed client of the catalogue.
CREATE FUNCTION client_cache_service_account_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM session_cache_notify(ARRAY[client_cache_group(OLD.client_id)]);
  RETURN NULL;
END $$;
CREATE TRIGGER service_accounts_client_cache AFTER UPDATE OF client_id, secret_hash OR DELETE ON service_accounts
  FOR EACH ROW EXECUTE FUNCTION client_cache_service_account_changed();

-- The tokens of an account (oidc-provider's ClientCredentials), deleted with it.
CREATE INDEX oidc_payloads_client_credentials_idx ON oidc_payloads ((payload->>'clientId')) WHERE model = 'ClientCredentials';

-- An audit entry made by a service account names it (actor_user_id and actor_email stay null;
-- actor_name keeps its name as it was). No foreign key: the entries outlive the account.
ALTER TABLE audit_log ADD COLUMN actor_service_account_id uuid;
CREATE INDEX audit_log_actor_service_account_idx ON audit_log (actor_service_account_id) WHERE actor_service_account_id IS NOT NULL;
