-- E-mails leave through an outbox (README.md, "E-mail"; docs/decisions/024-mail-outbox.md).
-- Migration 0082 moved mail_outbox into the one outbox table (kind 'email') and dropped it.
-- mail_outbox was a record written after sending; it becomes the queue itself. A change writes its
-- e-mail here in its own transaction (apps/server/src/modules/mail/mailer.ts) and a worker sends the
-- due ones after commit, holding their rows FOR UPDATE SKIP LOCKED while it talks to the mail
-- server (apps/server/src/modules/mail/outbox-worker.ts), so that two instances never send one twice.
-- The same table rather than a new one: a pending e-mail and its record are one row whose state
-- changes, and the table's readers (the development log's links, the tests, bench/run.mjs) keep
-- reading it.
--
-- state: pending (to be sent: next_attempt_at), sent, failed (the attempts ran out, or the mail
-- server refused it for good), kept (no SMTP_URL, development: logged and kept with its body).
-- While pending the bodies carry single-use secrets (reset and invitation codes): they are held only
-- in sealed_body, {text, html} as compact JWE (apps/server/src/sealed.ts), and text_body and
-- html_body are null. Once sent or failed the sealed body is dropped and the bodies say they were
-- not kept; a kept e-mail has its bodies in clear (the only way to follow its links in development).

ALTER TABLE mail_outbox
  ALTER COLUMN text_body DROP NOT NULL,
  ALTER COLUMN html_body DROP NOT NULL,
  ADD COLUMN state text NOT NULL DEFAULT 'sent' CHECK (state IN ('pending', 'sent', 'failed', 'kept')),
  ADD COLUMN attempts integer NOT NULL DEFAULT 0,
  ADD COLUMN next_attempt_at timestamptz NOT NULL DEFAULT now(),
  ADD COLUMN last_attempt_at timestamptz,
  ADD COLUMN sealed_body text;
ALTER TABLE mail_outbox RENAME COLUMN error TO last_error;

-- the rows written before: sent (the default above, no rewrite of the table), failed (an error,
-- which nothing retried) or kept (neither: written without SMTP_URL)
UPDATE mail_outbox SET state = CASE WHEN last_error IS NOT NULL THEN 'failed' ELSE 'kept' END WHERE sent_at IS NULL;
ALTER TABLE mail_outbox ALTER COLUMN state SET DEFAULT 'pending';
ALTER TABLE mail_outbox ADD CONSTRAINT mail_outbox_pending_sealed CHECK (state <> 'pending' OR sealed_body IS NOT NULL);

-- the worker's question: the due pending e-mails, oldest first
CREATE INDEX mail_outbox_due_idx ON mail_outbox (next_attempt_at) WHERE state = 'pending';
