-- The outbox of what leaves the portal (docs/decisions/024-mail-outbox.md),
-- keyed by kind: back-channel logouts to relying parties first ('backchannel_logout', payload
-- {client_id, account_id, sid}). A change writes its rows in its own transaction
-- (apps/server/src/outbox/queries.ts); the outbox's worker (apps/server/src/outbox/worker.ts)
-- sends the due ones after commit, holding their rows FOR UPDATE SKIP LOCKED, and tries again with
-- growing delays what the receiver did not take. E-mails (mail_outbox) and webhook deliveries
-- (webhook_deliveries) kept their tables at first, sent by the same worker; migration 0082 moved
-- them into this table (kinds 'email' and 'webhook').
--
-- state: pending (to be sent: next_attempt_at), delivered, failed (the attempts ran out, or it was
-- refused for good). Finished rows are removed after WEBHOOK_RETENTION_DAYS (apps/server/src/jobs.ts).

CREATE TABLE outbox (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  kind             text NOT NULL,
  payload          jsonb NOT NULL,
  state            text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
  attempts         integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz NOT NULL DEFAULT now(),
  last_attempt_at  timestamptz,
  last_error       text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  completed_at     timestamptz
);
-- the worker's question: a kind's due pending rows, oldest first
CREATE INDEX outbox_due_idx ON outbox (kind, next_attempt_at) WHERE state = 'pending';
-- the retention sweep of finished rows
CREATE INDEX outbox_completed_idx ON outbox (completed_at) WHERE completed_at IS NOT NULL;
