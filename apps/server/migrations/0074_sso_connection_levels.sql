-- Single sign-on connections prepared before they serve anyone, and one domain on many levels
-- (docs/dealer-identity.md, "Single sign-on per organization"; apps/server/src/modules/sso/routing.ts):
-- an inactive connection serves nobody but a manager's test sign-in. A domain may be listed by a
-- connection of an organization and by connections of organizations below it: a member signs in
-- at the nearest one above them (no index changes: the GIN index of 0060 answers "which
-- connections list this domain").
ALTER TABLE sso_connections ADD COLUMN active boolean NOT NULL DEFAULT true;
