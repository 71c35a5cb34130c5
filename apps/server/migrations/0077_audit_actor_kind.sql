-- Who acted, by kind and id (apps/server/src/http/actor.ts, docs/decisions/020-integrations.md):
-- every entry names its actor's kind — a signed-in person, a service account, a directory through
-- its SCIM token, one of the portal's jobs, a support session — and, where it has one, its id (the
-- user's, the service account's, the SCIM token's). actor_user_id, actor_email,
-- actor_service_account_id and actor_name stay as the trail shows them.
ALTER TABLE audit_log
  ADD COLUMN actor_kind text CHECK (actor_kind IN ('person', 'service_account', 'directory', 'job', 'support')),
  ADD COLUMN actor_id uuid;

-- Entries written before: a service account by its column, a directory by its "SCIM: <token name>"
-- (its token's id was not kept), a person by their user or, not signed in, their address; nobody
-- is a job (the bootstrap, the recheck of domains, what a migration ended).
UPDATE audit_log SET
  actor_kind = CASE
    WHEN actor_service_account_id IS NOT NULL THEN 'service_account'
    WHEN actor_user_id IS NULL AND actor_email LIKE 'SCIM: %' THEN 'directory'
    WHEN actor_user_id IS NOT NULL OR actor_email IS NOT NULL THEN 'person'
    ELSE 'job'
  END,
  actor_id = COALESCE(actor_service_account_id, actor_user_id);

ALTER TABLE audit_log ALTER COLUMN actor_kind SET NOT NULL;
-- the entries of one actor (a service account's or a directory's trail)
CREATE INDEX audit_log_actor_idx ON audit_log (actor_kind, actor_id) WHERE actor_id IS NOT NULL;
