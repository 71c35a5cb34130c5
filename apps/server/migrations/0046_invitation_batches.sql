-- Bulk invitations: the report of each sending from a CSV file, downloadable afterwards by the
-- userManagers of the organization's subtree.
CREATE TABLE invitation_batches (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id  uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  created_by       uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  sent             integer NOT NULL,
  refused          integer NOT NULL,
  -- one entry per row of the file: line, e-mail, names, language, outcome, invitation id
  rows             jsonb NOT NULL
);
CREATE INDEX invitation_batches_organization_idx ON invitation_batches (organization_id);
