-- What a service account makes that acts on its own belongs to it and ends with it (docs/integrations.md,
-- "Service accounts"): a webhook made with a service account's bearer token names the account, and
-- goes when the account goes (its deliveries and their attempts follow by the cascades of 0072).
-- A person's webhook names none. The deletion's audit entry lists the webhooks that went
-- (apps/server/src/modules/service-accounts/service.ts).
ALTER TABLE webhooks ADD COLUMN service_account_id uuid REFERENCES service_accounts(id) ON DELETE CASCADE;
-- the account's webhooks, for its deletion (the cascade and its audit entry)
CREATE INDEX webhooks_service_account_idx ON webhooks (service_account_id) WHERE service_account_id IS NOT NULL;

-- Webhooks made before this migration: the audit entry of a webhook's creation names the service
-- account that made it (0070, actor_service_account_id).
UPDATE webhooks w SET service_account_id = a.actor_service_account_id
FROM audit_log a JOIN service_accounts s ON s.id = a.actor_service_account_id
WHERE a.action = 'webhook.create' AND a.target_type = 'webhook' AND a.target_id = w.id::text;

-- One whose account has been deleted already ends now, audited as a deletion by nobody (as a
-- job's change is), with the account that made it.
WITH orphaned AS (
  DELETE FROM webhooks w USING audit_log a, organizations o
  WHERE a.action = 'webhook.create' AND a.target_type = 'webhook' AND a.target_id = w.id::text
    AND a.actor_service_account_id IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM service_accounts s WHERE s.id = a.actor_service_account_id)
    AND o.id = w.organization_id
  RETURNING w.id, w.organization_id, o.path, w.url, w.events, w.description, a.actor_service_account_id
)
INSERT INTO audit_log (organization_id, organization_path, action, target_type, target_id, before)
SELECT organization_id, path, 'webhook.delete', 'webhook', id::text,
       jsonb_build_object('url', url, 'events', to_jsonb(events), 'description', description,
                          'service_account_id', actor_service_account_id)
FROM orphaned;
