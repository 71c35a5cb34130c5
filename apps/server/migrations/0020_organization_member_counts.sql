-- Member counts per organization, kept by statement-level triggers on memberships, so that the
-- organization tree (GET /api/organizations/tree) does not count a million memberships on every
-- call. Statement-level triggers with transition tables: a bulk insert updates each organization's
-- count once. The counts are rebuilt here from the memberships that exist.

CREATE TABLE organization_member_counts (
  organization_id  uuid PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  members          integer NOT NULL DEFAULT 0
);

INSERT INTO organization_member_counts (organization_id, members)
SELECT organization_id, count(*)::int FROM memberships GROUP BY organization_id;

CREATE FUNCTION organization_member_counts_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO organization_member_counts AS c (organization_id, members)
  SELECT organization_id, count(*)::int FROM added GROUP BY organization_id
  ON CONFLICT (organization_id) DO UPDATE SET members = c.members + excluded.members;
  RETURN NULL;
END $$;

CREATE FUNCTION organization_member_counts_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE organization_member_counts AS c SET members = c.members - r.n
  FROM (SELECT organization_id, count(*)::int AS n FROM removed GROUP BY organization_id) AS r
  WHERE c.organization_id = r.organization_id;
  RETURN NULL;
END $$;

CREATE FUNCTION organization_member_counts_move() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE organization_member_counts AS c SET members = c.members - r.n
  FROM (SELECT organization_id, count(*)::int AS n FROM removed GROUP BY organization_id) AS r
  WHERE c.organization_id = r.organization_id;
  INSERT INTO organization_member_counts AS c (organization_id, members)
  SELECT organization_id, count(*)::int FROM added GROUP BY organization_id
  ON CONFLICT (organization_id) DO UPDATE SET members = c.members + excluded.members;
  RETURN NULL;
END $$;

CREATE TRIGGER memberships_count_insert AFTER INSERT ON memberships
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION organization_member_counts_add();
CREATE TRIGGER memberships_count_delete AFTER DELETE ON memberships
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION organization_member_counts_remove();
CREATE TRIGGER memberships_count_update AFTER UPDATE ON memberships
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION organization_member_counts_move();
