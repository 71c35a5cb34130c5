import type { Queryable } from '../../db/client.js';
import { seal } from '../../sealed.js';
import { insertPendingMail } from './queries.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** what the e-mail is, for the outbox and the logs: 'invitation', 'password-reset', … */
  kind: string;
}

export interface MailOptions {
  /**
   * The transaction of the change the e-mail tells of: the e-mail is written in it, and leaves if
   * and when it commits. Without it the e-mail is written on its own (durable once written).
   */
  tx?: Queryable;
}

export interface Mailer {
  /**
   * Write the e-mail to the outbox and wake the senders; never talks to the mail server. The only
   * sender is the outbox's worker (outbox-worker.ts).
   */
  enqueue(message: MailMessage, options?: MailOptions): Promise<void>;
}

/** The sealing purpose of the outbox's bodies (sealed.ts): its own key, derived from the key-encryption secret. */
export const MAIL_BODY_PURPOSE = 'mail-outbox-body';

/**
 * The outbox's writer (README.md, "E-mail"; migration 0075). `enqueue` writes a pending
 * row whose body ({text, html}, with the single-use secrets of reset and invitation links) is
 * sealed under the key-encryption secret, and notifies the senders on pp_mail. The outbox's worker
 * (outbox/worker.ts, with the deliverer of outbox-worker.ts) is the only one that talks to SMTP: it sends the row after commit, retries
 * what the mail server did not take, and then drops the sealed body; without SMTP_URL
 * (development) it keeps the body in clear and logs it.
 */
export function createMailer(options: { db: Queryable; keyEncryption: string }): Mailer {
  return {
    async enqueue(message, sendOptions = {}) {
      const sealedBody = await seal(options.keyEncryption, MAIL_BODY_PURPOSE, JSON.stringify({ text: message.text, html: message.html }));
      await insertPendingMail(sendOptions.tx ?? options.db, {
        recipient: message.to,
        subject: message.subject,
        kind: message.kind,
        sealedBody,
      });
    },
  };
}
