import type { NotifyChannel, Queryable } from '../../db/client.js';
import type { OutboxTable } from '../../outbox/queries.js';
import type { Outcome } from '../../outbox/worker.js';

/**
 * The e-mails of the outbox (kind 'email' of the outbox table, migrations 0075 and 0082; README.md,
 * "E-mail"): mailer.ts writes, the outbox's worker (outbox/worker.ts, with the deliverer of
 * outbox-worker.ts) takes the due e-mails, sends them and writes what became of them. The
 * recipient is a column; the rest is in payload: mail_kind, subject, sealed_body while pending,
 * text_body and html_body once finished.
 */

/** The outbox kind of e-mails. */
export const EMAIL = 'email';

/** What a sent or failed e-mail keeps instead of its body (links carry single-use secrets). */
export const BODY_NOT_KEPT = '(sent through SMTP; body not kept)';

/** The channel a written e-mail wakes the workers on (every instance's). */
export const MAIL_CHANNEL: NotifyChannel = 'pp_mail';

/**
 * Write a pending e-mail, its body sealed, and wake the workers: in the caller's transaction (the
 * notification goes out when it commits) or on its own. One statement.
 */
export async function insertPendingMail(
  db: Queryable,
  mail: { recipient: string; subject: string; kind: string; sealedBody: string },
): Promise<void> {
  await db.query(
    `WITH written AS (
       INSERT INTO outbox (kind, recipient, payload)
       VALUES ('${EMAIL}', $1, jsonb_build_object('mail_kind', $3::text, 'subject', $2::text, 'sealed_body', $4::text)) RETURNING id
     )
     SELECT pg_notify('${MAIL_CHANNEL}', '') FROM written`,
    [mail.recipient, mail.subject, mail.kind, mail.sealedBody],
  );
}

/** A due e-mail, as the worker sends it. */
export interface DueMail {
  id: string;
  recipient: string;
  subject: string;
  /** what the e-mail is: 'invitation', 'password-reset', … */
  mail_kind: string;
  sealed_body: string;
  attempts: number;
}

/** The e-mail outbox as the outbox's worker takes from it (outbox/queries.ts). */
export const MAIL_TABLE: OutboxTable = {
  from: 'outbox m',
  alias: 'm',
  columns: `m.id, m.recipient, m.payload->>'subject' AS subject, m.payload->>'mail_kind' AS mail_kind,
            m.payload->>'sealed_body' AS sealed_body, m.attempts`,
  where: `m.kind = '${EMAIL}'`,
};

/** What became of one attempt of one e-mail (outbox/worker.ts); kept (no SMTP_URL): its bodies, in clear. */
export type MailOutcome = Outcome<DueMail, { text: string; html: string }>;

/**
 * Write a batch of outcomes in one statement. Pending: one attempt more and the next one's time,
 * the body still sealed. Delivered and failed: the sealed body dropped, the bodies not kept. Kept:
 * the bodies in clear (development), no attempt counted. All but pending are finished (completed_at).
 */
export async function recordMailOutcomes(db: Queryable, outcomes: readonly MailOutcome[]): Promise<void> {
  if (!outcomes.length) return;
  await db.query(
    `WITH r AS (
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::text[], $5::float8[], $6::text[], $7::text[])
         AS r(id, state, attempted_at, error, retry_in, text_body, html_body)
     )
     UPDATE outbox m
     SET state = r.state,
         attempts = m.attempts + CASE WHEN r.state = 'kept' THEN 0 ELSE 1 END,
         last_attempt_at = CASE WHEN r.state = 'kept' THEN m.last_attempt_at ELSE r.attempted_at END,
         last_error = coalesce(r.error, m.last_error),
         next_attempt_at = CASE WHEN r.state = 'pending' THEN clock_timestamp() + make_interval(secs => r.retry_in) ELSE m.next_attempt_at END,
         completed_at = CASE WHEN r.state = 'pending' THEN NULL ELSE clock_timestamp() END,
         payload = CASE WHEN r.state = 'pending' THEN m.payload
                        ELSE (m.payload - 'sealed_body') || jsonb_build_object('text_body', coalesce(r.text_body, $8), 'html_body', coalesce(r.html_body, $8)) END
     FROM r WHERE m.id = r.id AND m.kind = '${EMAIL}'`,
    [
      outcomes.map((o) => o.row.id),
      outcomes.map((o) => o.state),
      outcomes.map((o) => o.attemptedAt.toISOString()),
      outcomes.map((o) => o.error),
      outcomes.map((o) => o.retryInSeconds ?? 0),
      outcomes.map((o) => (o.state === 'kept' ? (o.detail?.text ?? null) : null)),
      outcomes.map((o) => (o.state === 'kept' ? (o.detail?.html ?? null) : null)),
      BODY_NOT_KEPT,
    ],
  );
}

/** Whom an e-mail to a user goes to, and in which language. */
export interface Recipient {
  email: string;
  first_name: string;
  language_code: string;
}

export async function findRecipient(db: Queryable, userId: string): Promise<Recipient | undefined> {
  const { rows } = await db.query<Recipient>('SELECT email, first_name, language_code FROM users WHERE id = $1', [userId]);
  return rows[0];
}
