-- Single sign-on per organization (docs/dealer-identity.md, "Single sign-on per organization").

-- Every instance keeps in memory whether any connection exists (apps/server/src/modules/sso/routing.ts),
-- so that the login's e-mail and password steps ask nothing more of the database while none does.
-- A change of sso_connections is announced on the session cache's channel (migration 0050's
-- session_cache_notify) as the group "sso:connections", from the changing transaction.
CREATE FUNCTION sso_connections_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM session_cache_notify(ARRAY['sso:connections']);
  RETURN NULL;
END $$;
CREATE TRIGGER sso_connections_cache AFTER INSERT OR UPDATE OR DELETE ON sso_connections
  FOR EACH STATEMENT EXECUTE FUNCTION sso_connections_changed();

-- A sign-in waiting for its second step remembers how its first step was made (RFC 8176 amr):
-- 'pwd' for a password, 'fed' for a sign-in at an identity provider (a connection), so that the
-- completed session says which (apps/server/src/modules/factors/second-step.ts).
ALTER TABLE second_step_logins ADD COLUMN first_factor text NOT NULL DEFAULT 'pwd';
