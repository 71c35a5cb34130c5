-- One outbox for everything that leaves the portal (CONVENTIONS.md, "Events leave through an outbox";
-- docs/decisions/024-mail-outbox.md): the e-mails (mail_outbox, migration 0075) and the webhook
-- deliveries (webhook_deliveries, migration 0072) move into the shared outbox of migration 0076,
-- keyed by kind like the back-channel logouts, password reset requests and audit-stream entries
-- already there. One table, one set of statements (apps/server/src/outbox/queries.ts), one worker
-- (apps/server/src/outbox/worker.ts). Every row keeps its id, state, attempts and times: a pending
-- e-mail or delivery is sent after the upgrade, a finished one still shows.
--
-- kind 'email': recipient (typed: the tests', the bench's and the logs' lookups by address), payload
--   {mail_kind ('invitation', 'password-reset', …), subject, sealed_body while pending ({text, html}
--   as compact JWE, apps/server/src/sealed.ts), text_body and html_body once sent, failed or kept}.
--   Its states: pending, delivered (was 'sent'; completed_at was sent_at), failed, kept (no
--   SMTP_URL, development: the bodies in clear). E-mails stay a record of what was sent: the
--   retention sweep of finished rows leaves them (apps/server/src/outbox/queries.ts).
-- kind 'webhook': webhook_id (typed, removed with its webhook; the deliveries list and the key no
--   two runners of a process send to), payload {event_type, organization_id, body: the exact body
--   as text, signed as is}. Its states: pending, delivered (the API's 'succeeded'), failed. Every
--   attempt stays in webhook_delivery_attempts (its status there; last_status is not carried).

ALTER TABLE outbox
  ADD COLUMN recipient text,
  ADD COLUMN webhook_id uuid REFERENCES webhooks(id) ON DELETE CASCADE,
  DROP CONSTRAINT outbox_state_check,
  ADD CONSTRAINT outbox_state_check CHECK (state IN ('pending', 'delivered', 'failed', 'kept')),
  ADD CONSTRAINT outbox_email_shape CHECK (kind <> 'email' OR (recipient IS NOT NULL AND (state <> 'pending' OR payload ? 'sealed_body'))),
  ADD CONSTRAINT outbox_webhook_shape CHECK (kind <> 'webhook' OR webhook_id IS NOT NULL);

INSERT INTO outbox (id, kind, recipient, payload, state, attempts, next_attempt_at, last_attempt_at, last_error, created_at, completed_at)
SELECT id, 'email', recipient,
       jsonb_strip_nulls(jsonb_build_object('mail_kind', kind, 'subject', subject, 'sealed_body', sealed_body,
                                            'text_body', text_body, 'html_body', html_body)),
       CASE state WHEN 'sent' THEN 'delivered' ELSE state END,
       attempts, next_attempt_at, last_attempt_at, last_error, created_at,
       CASE WHEN state = 'pending' THEN NULL ELSE coalesce(sent_at, last_attempt_at, created_at) END
FROM mail_outbox;

INSERT INTO outbox (id, kind, webhook_id, payload, state, attempts, next_attempt_at, last_attempt_at, last_error, created_at, completed_at)
SELECT id, 'webhook', webhook_id,
       jsonb_build_object('event_type', event_type, 'organization_id', organization_id, 'body', payload),
       CASE state WHEN 'succeeded' THEN 'delivered' ELSE state END,
       attempts, next_attempt_at, last_attempt_at, last_error, created_at, completed_at
FROM webhook_deliveries;

ALTER TABLE webhook_delivery_attempts
  DROP CONSTRAINT webhook_delivery_attempts_delivery_id_fkey,
  ADD CONSTRAINT webhook_delivery_attempts_delivery_id_fkey FOREIGN KEY (delivery_id) REFERENCES outbox(id) ON DELETE CASCADE;

DROP TABLE mail_outbox;
DROP TABLE webhook_deliveries;

-- a webhook's deliveries, newest first (the deliveries list, redelivery; the webhook's removal)
CREATE INDEX outbox_webhook_idx ON outbox (webhook_id, created_at DESC) WHERE webhook_id IS NOT NULL;
-- the e-mails to an address, newest first
CREATE INDEX outbox_recipient_idx ON outbox (recipient, created_at DESC) WHERE recipient IS NOT NULL;
