-- Changes to what the organization tree shows (GET /api/organizations/tree): the organizations,
-- their member counts, pending invitations, apps and allowed e-mail domains. Every transaction that
-- changes one of them records its transaction id here, once. Each instance caches a serialized tree
-- with the snapshot it was built after, and serves it while no recorded change is invisible in that
-- snapshot (pg_visible_in_snapshot): a change committed on any instance ends every cached copy.
-- Writers insert their own row, so they never wait for each other here. Rows older than an hour are
-- removed by the clean-up job; no cached tree lives that long.

CREATE TABLE organization_tree_changes (
  txid         xid8 PRIMARY KEY,
  recorded_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX organization_tree_changes_recorded_idx ON organization_tree_changes (recorded_at);

CREATE FUNCTION organization_tree_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO organization_tree_changes (txid) VALUES (pg_current_xact_id()) ON CONFLICT (txid) DO NOTHING;
  RETURN NULL;
END $$;

CREATE TRIGGER organizations_tree_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON organizations
  FOR EACH STATEMENT EXECUTE FUNCTION organization_tree_changed();
CREATE TRIGGER organization_member_counts_tree_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON organization_member_counts
  FOR EACH STATEMENT EXECUTE FUNCTION organization_tree_changed();
CREATE TRIGGER invitations_tree_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON invitations
  FOR EACH STATEMENT EXECUTE FUNCTION organization_tree_changed();
CREATE TRIGGER organization_apps_tree_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON organization_apps
  FOR EACH STATEMENT EXECUTE FUNCTION organization_tree_changed();
CREATE TRIGGER organization_email_domains_tree_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON organization_email_domains
  FOR EACH STATEMENT EXECUTE FUNCTION organization_tree_changed();
