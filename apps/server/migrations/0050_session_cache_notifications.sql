-- The per-instance cache of sessions and their users (apps/server/src/http/session-cache.ts) learns
-- of every change that alters what a cached session answers, from the transaction that makes it:
-- these triggers send one NOTIFY on channel pp_session_cache per statement, delivered to every
-- listening instance when the transaction commits (and never when it rolls back). The payload is
-- "<backend pid>|<user ids, comma-separated>", or "<backend pid>|*" for "drop every entry" (a change
-- of many users at once, or of an organization's name, path or depth, which sessions show).

CREATE FUNCTION session_cache_notify(user_ids text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF user_ids IS NULL OR cardinality(user_ids) = 0 THEN
    RETURN;
  END IF;
  PERFORM pg_notify('pp_session_cache', pg_backend_pid()::text || '|' ||
    CASE WHEN cardinality(user_ids) > 150 THEN '*' ELSE array_to_string(user_ids, ',') END);
END $$;

-- sessions: ended (logout, another browser, password reset, removal, second-factor enforcement,
-- sweep), shortened, or dated back (a start or last use moved into the past decides the next
-- slide); the sliding of expiry itself (later expires_at and last_seen_at) changes nothing cached
CREATE FUNCTION session_cache_sessions_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM session_cache_notify(ARRAY(SELECT DISTINCT user_id::text FROM old_rows));
  RETURN NULL;
END $$;
CREATE TRIGGER sessions_cache_delete AFTER DELETE ON sessions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION session_cache_sessions_deleted();

CREATE FUNCTION session_cache_sessions_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM session_cache_notify(ARRAY(
    SELECT DISTINCT o.user_id::text FROM old_rows o JOIN new_rows n ON n.id_hash = o.id_hash
    WHERE n.expires_at < o.expires_at OR n.user_id <> o.user_id OR n.created_at <> o.created_at OR n.last_seen_at < o.last_seen_at));
  RETURN NULL;
END $$;
CREATE TRIGGER sessions_cache_update AFTER UPDATE ON sessions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION session_cache_sessions_updated();

-- users: what a session shows or allows (the last sign-in time, written at every login, is not)
CREATE FUNCTION session_cache_users_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM session_cache_notify(ARRAY(
    SELECT n.id::text FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE (n.email, n.first_name, n.last_name, n.language_code, n.password_hash, n.external_idp, n.is_developer,
           n.must_change_password, n.password_changed_at)
      IS DISTINCT FROM
          (o.email, o.first_name, o.last_name, o.language_code, o.password_hash, o.external_idp, o.is_developer,
           o.must_change_password, o.password_changed_at)));
  RETURN NULL;
END $$;
CREATE TRIGGER users_cache_update AFTER UPDATE ON users
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION session_cache_users_updated();

CREATE FUNCTION session_cache_users_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM session_cache_notify(ARRAY(SELECT id::text FROM old_rows));
  RETURN NULL;
END $$;
CREATE TRIGGER users_cache_delete AFTER DELETE ON users
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION session_cache_users_deleted();

-- memberships: a user's organization and rights
CREATE FUNCTION session_cache_memberships_new() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM session_cache_notify(ARRAY(SELECT DISTINCT user_id::text FROM new_rows));
  RETURN NULL;
END $$;
CREATE FUNCTION session_cache_memberships_old() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM session_cache_notify(ARRAY(SELECT DISTINCT user_id::text FROM old_rows));
  RETURN NULL;
END $$;
CREATE FUNCTION session_cache_memberships_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM session_cache_notify(ARRAY(
    SELECT DISTINCT u FROM old_rows o JOIN new_rows n ON n.id = o.id,
      LATERAL (VALUES (o.user_id::text), (n.user_id::text)) AS x(u)
    WHERE (n.user_id, n.organization_id, n.rights) IS DISTINCT FROM (o.user_id, o.organization_id, o.rights)));
  RETURN NULL;
END $$;
CREATE TRIGGER memberships_cache_insert AFTER INSERT ON memberships
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION session_cache_memberships_new();
CREATE TRIGGER memberships_cache_delete AFTER DELETE ON memberships
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION session_cache_memberships_old();
CREATE TRIGGER memberships_cache_update AFTER UPDATE ON memberships
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION session_cache_memberships_updated();

-- organizations: a session shows its user's organization's name and path (a move changes the paths
-- of a whole subtree), and the root's depth decides the provider's rights: every entry goes
CREATE FUNCTION session_cache_organizations_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE (n.name, n.path, n.depth) IS DISTINCT FROM (o.name, o.path, o.depth)) THEN
    PERFORM pg_notify('pp_session_cache', pg_backend_pid()::text || '|*');
  END IF;
  RETURN NULL;
END $$;
CREATE FUNCTION session_cache_organizations_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('pp_session_cache', pg_backend_pid()::text || '|*');
  RETURN NULL;
END $$;
CREATE TRIGGER organizations_cache_update AFTER UPDATE ON organizations
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION session_cache_organizations_changed();
CREATE TRIGGER organizations_cache_delete AFTER DELETE ON organizations
  FOR EACH STATEMENT EXECUTE FUNCTION session_cache_organizations_deleted();
