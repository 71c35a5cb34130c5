-- Webhooks (docs/integrations.md, "Webhooks"): an organization's subscriptions to the events of its
-- subtree, and the transactional outbox of their deliveries. A change writes one delivery row per
-- matching subscription in its own transaction (apps/server/src/modules/webhooks/outbox.ts); a
-- worker sends the due ones after commit, holding their rows FOR UPDATE SKIP LOCKED while it sends
-- (apps/server/src/modules/webhooks/worker.ts), and logs every attempt.

CREATE TABLE webhooks (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id  uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  url              text NOT NULL,
  events           text[] NOT NULL,           -- event types, or {'*'} for all of them
  description      text,
  secret_sealed    text NOT NULL,             -- whsec_… as compact JWE (apps/server/src/sealed.ts)
  created_by       uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhooks_organization_idx ON webhooks (organization_id);

-- (Migration 0082 moved webhook_deliveries into the one outbox table, kind 'webhook', and dropped it;
-- webhook_delivery_attempts now references outbox.)
-- One event for one subscription: sent until it is answered 2xx (succeeded) or the attempts run out
-- (failed). Its id is the webhook-id header, the same at every attempt; payload is the exact body.
CREATE TABLE webhook_deliveries (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  webhook_id       uuid NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  event_type       text NOT NULL,
  organization_id  uuid NOT NULL,             -- the event's organization (it may be gone since)
  payload          text NOT NULL,
  state            text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'succeeded', 'failed')),
  attempts         integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz NOT NULL DEFAULT now(),
  last_attempt_at  timestamptz,
  last_status      integer,
  last_error       text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  completed_at     timestamptz
);
-- the worker's question: the due pending deliveries, oldest first
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
-- a webhook's deliveries, newest first
CREATE INDEX webhook_deliveries_webhook_idx ON webhook_deliveries (webhook_id, created_at DESC);
-- the retention sweep of finished deliveries
CREATE INDEX webhook_deliveries_completed_idx ON webhook_deliveries (completed_at) WHERE completed_at IS NOT NULL;

-- Every attempt: the answer's status (null: none came), how long it took, and why it failed.
CREATE TABLE webhook_delivery_attempts (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  delivery_id      uuid NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  attempted_at     timestamptz NOT NULL,
  status           integer,
  duration_ms      integer NOT NULL,
  error            text
);
CREATE INDEX webhook_delivery_attempts_delivery_idx ON webhook_delivery_attempts (delivery_id, id);
