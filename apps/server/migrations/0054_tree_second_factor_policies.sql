-- The organization tree marks the organizations that require a second factor of their subtree
-- (GET /api/organizations/tree, second_factor_required): a change of a policy is a change of what
-- the tree shows, recorded like the others of 0030_organization_tree_changes.sql.
CREATE TRIGGER second_factor_policies_tree_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON second_factor_policies
  FOR EACH STATEMENT EXECUTE FUNCTION organization_tree_changed();
