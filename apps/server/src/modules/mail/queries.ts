import type { NotifyChannel, Queryable } from '../../db/client.js';

/**
 * The e-mail outbox (migration 0075; README.md, "E-mail"): mailer.ts writes, the worker
 * (outbox-worker.ts) takes the due e-mails, sends them and writes what became of them.
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

/** Wake the senders of every instance (a runner took a full batch: there may be more). */
export async function notifyMailSenders(db: Queryable): Promise<void> {
  await db.query(`SELECT pg_notify('${MAIL_CHANNEL}', '')`);
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

/**
 * Up to `limit` due pending e-mails, oldest first, their rows locked for the caller's transaction;
 * rows another transaction holds (another instance or runner sending them) are skipped, and so are
 * the e-mails `excluded` (those this process is sending where no transaction holds them: PGlite).
 */
export async function claimDueMails(db: Queryable, limit: number, excluded: readonly string[]): Promise<DueMail[]> {
  const { rows } = await db.query<DueMail>(
    `SELECT id, recipient, subject, kind, sealed_body, attempts FROM mail_outbox
     WHERE state = 'pending' AND next_attempt_at <= now() AND NOT (id = ANY($2::uuid[]))
     ORDER BY next_attempt_at
     LIMIT $1
     FOR UPDATE SKIP LOCKED`,
    [limit, excluded],
  );
  return rows;
}

/** What became of one attempt of one e-mail, as recordMailOutcomes writes it. */
export interface MailOutcome {
  id: string;
  state: 'pending' | 'sent' | 'failed' | 'kept';
  attemptedAt: Date;
  error: string | null;
  /** pending: the next attempt after this many seconds */
  retryInSeconds: number | null;
  /** kept (no SMTP_URL): the bodies, in clear */
  kept?: { text: string; html: string };
}

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
      outcomes.map((o) => o.id),
      outcomes.map((o) => o.state),
      outcomes.map((o) => o.attemptedAt.toISOString()),
      outcomes.map((o) => o.error),
      outcomes.map((o) => o.retryInSeconds ?? 0),
      outcomes.map((o) => o.kept?.text ?? null),
      outcomes.map((o) => o.kept?.html ?? null),
      BODY_NOT_KEPT,
    ],
  );
}

/** Milliseconds until the next pending e-mail is due (0: one is due now), or null when none is pending. */
export async function msUntilNextMailDue(db: Queryable): Promise<number | null> {
  const { rows } = await db.query<{ ms: number | null }>(
    `SELECT greatest(0, (extract(epoch FROM min(next_attempt_at) - clock_timestamp()) * 1000))::int AS ms
     FROM mail_outbox WHERE state = 'pending'`,
  );
  return rows[0]?.ms ?? null;
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
