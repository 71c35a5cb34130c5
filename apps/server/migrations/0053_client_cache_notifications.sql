-- The OpenID provider's clients are cached per instance like sessions (apps/server/src/oidc/adapter.ts):
-- a client is looked up at every token request. A change of a client, registered (an oidc_payloads
-- row of model 'Client') or of the app catalogue (apps.oidc_metadata), is announced on the session
-- cache's channel from the changing transaction as the group "client:<client id>" (migration 0050's
-- session_cache_notify). An id that could not be read back from the announcement (with a comma, a
-- bar or a star) drops every entry instead. Row triggers with a WHEN condition: the token rows that
-- every grant writes to oidc_payloads do not call any function.

CREATE FUNCTION client_cache_group(client_id text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN client_id ~ '[,|*]' THEN '*' ELSE 'client:' || client_id END
$$;

CREATE FUNCTION client_cache_payload_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM session_cache_notify(ARRAY[client_cache_group(OLD.id)]);
  ELSE
    PERFORM session_cache_notify(ARRAY[client_cache_group(NEW.id)]);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER oidc_client_cache_write AFTER INSERT OR UPDATE ON oidc_payloads
  FOR EACH ROW WHEN (NEW.model = 'Client') EXECUTE FUNCTION client_cache_payload_changed();
CREATE TRIGGER oidc_client_cache_delete AFTER DELETE ON oidc_payloads
  FOR EACH ROW WHEN (OLD.model = 'Client') EXECUTE FUNCTION client_cache_payload_changed();

CREATE FUNCTION client_cache_app_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM session_cache_notify(ARRAY[client_cache_group(OLD.client_id)]);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM session_cache_notify(ARRAY[client_cache_group(NEW.client_id)]);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER apps_client_cache AFTER INSERT OR UPDATE OR DELETE ON apps
  FOR EACH ROW EXECUTE FUNCTION client_cache_app_changed();
