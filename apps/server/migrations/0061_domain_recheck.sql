-- The hourly re-verification of verified domains (apps/server/src/modules/domains/recheck.ts). An
-- instance takes the domains that are due with FOR UPDATE SKIP LOCKED and marks them as its own
-- until recheck_until, then asks DNS outside any transaction (a lookup may take seconds, and the
-- embedded database runs one transaction at a time); another instance skips marked domains until
-- the mark has passed, so a crashed instance's domains are taken up again.
ALTER TABLE organization_domains ADD COLUMN recheck_until timestamptz;
CREATE INDEX organization_domains_recheck_idx ON organization_domains (checked_at) WHERE verified_at IS NOT NULL;
