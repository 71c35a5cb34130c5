import type { Queryable } from '../../db/client.js';

/** One e-mail in the outbox, with its delivery result (`sent`: handed to SMTP; `error`: why not). */
export async function recordInOutbox(
  db: Queryable,
  mail: { recipient: string; subject: string; textBody: string; htmlBody: string; kind: string; sent: boolean; error: string | null },
): Promise<void> {
  await db.query(
    `INSERT INTO mail_outbox (recipient, subject, text_body, html_body, kind, sent_at, error)
     VALUES ($1, $2, $3, $4, $5, CASE WHEN $6::boolean THEN now() END, $7)`,
    [mail.recipient, mail.subject, mail.textBody, mail.htmlBody, mail.kind, mail.sent, mail.error],
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
