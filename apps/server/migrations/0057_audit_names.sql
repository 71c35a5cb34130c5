-- The names an audit entry's sentence needs (apps/web/src/features/organizations/components/audit-sentences.ts),
-- kept as they were when the entry was written: the actor's, and that of the member the entry is about.
-- A removed member's user row is gone; the trail finds their name in the entries written before
-- (apps/server/src/modules/audit/queries.ts), by these two indexes.
ALTER TABLE audit_log ADD COLUMN actor_name text, ADD COLUMN subject_name text;
CREATE INDEX audit_log_target_idx ON audit_log (target_type, target_id);
CREATE INDEX audit_log_actor_user_idx ON audit_log (actor_user_id);
