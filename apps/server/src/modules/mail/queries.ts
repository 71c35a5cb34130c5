import type { NotifyChannel, Queryable } from '../../db/client.js';
import type { OutboxTable } from '../../outbox/queries.js';
import type { Outcome } from '../../outbox/worker.js';

/**
 * The e-mail outbox (migration 0075; README.md, "E-mail"): mailer.ts writes, the outbox's worker
 * (outbox/worker.ts, with the deliverer of outbox-worker.ts) takes the due e-mails, sends them and
 * writes what became of them.
 */

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
       INSERT INTO mail_outbox (recipient, subject, kind, sealed_body, state) VALUES ($1, $2, $3, $4, 'pending') RETURNING id
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
  kind: string;
  sealed_body: string;
  attempts: number;
}

/** The e-mail outbox as the outbox's worker takes from it (outbox/queries.ts). */
export const MAIL_TABLE: OutboxTable = {
  from: 'mail_outbox m',
  alias: 'm',
  columns: 'm.id, m.recipient, m.subject, m.kind, m.sealed_body, m.attempts',
};

/** What became of one attempt of one e-mail (outbox/worker.ts); kept (no SMTP_URL): its bodies, in clear. */
export type MailOutcome = Outcome<DueMail, { text: string; html: string }>;

const STATE_OF = { pending: 'pending', delivered: 'sent', failed: 'failed', kept: 'kept' } as const;

/**
 * Write a batch of outcomes in one statement. Pending: one attempt more and the next one's time,
 * the body still sealed. Sent and failed: the sealed body dropped, the bodies not kept. Kept: the
 * bodies in clear (development), no attempt counted.
 */
export async function recordMailOutcomes(db: Queryable, outcomes: readonly MailOutcome[]): Promise<void> {
  if (!outcomes.length) return;
  await db.query(
    `WITH r AS (
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::text[], $5::float8[], $6::text[], $7::text[])
         AS r(id, state, attempted_at, error, retry_in, text_body, html_body)
     )
     UPDATE mail_outbox m
     SET state = r.state,
         attempts = m.attempts + CASE WHEN r.state = 'kept' THEN 0 ELSE 1 END,
         last_attempt_at = CASE WHEN r.state = 'kept' THEN m.last_attempt_at ELSE r.attempted_at END,
         last_error = coalesce(r.error, m.last_error),
         next_attempt_at = CASE WHEN r.state = 'pending' THEN clock_timestamp() + make_interval(secs => r.retry_in) ELSE m.next_attempt_at END,
         sent_at = CASE WHEN r.state = 'sent' THEN clock_timestamp() ELSE m.sent_at END,
         sealed_body = CASE WHEN r.state = 'pending' THEN m.sealed_body END,
         text_body = CASE WHEN r.state = 'pending' THEN NULL WHEN r.state = 'kept' THEN r.text_body ELSE $8 END,
         html_body = CASE WHEN r.state = 'pending' THEN NULL WHEN r.state = 'kept' THEN r.html_body ELSE $8 END
     FROM r WHERE m.id = r.id`,
    [
      outcomes.map((o) => o.row.id),
      outcomes.map((o) => STATE_OF[o.state]),
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
