-- Organizations that require a second factor of their members (docs/second-factors.md). A row
-- holds for the organization's whole subtree. set_by_organization_id is the organization of the
-- manager who set it: only managers at that level or above may lift it again.
CREATE TABLE second_factor_policies (
  organization_id         uuid PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  set_by_organization_id  uuid REFERENCES organizations(id) ON DELETE SET NULL,
  set_by_user_id          uuid REFERENCES users(id) ON DELETE SET NULL,
  set_at                  timestamptz NOT NULL DEFAULT now()
);
