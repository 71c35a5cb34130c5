import nodemailer, { type Transporter } from 'nodemailer';
import SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import { startLane, type LaneOptions, type OutboxKind, type OutboxLane } from '../../outbox/worker.js';
import { unseal } from '../../sealed.js';
import { MAIL_BODY_PURPOSE } from './mailer.js';
import { MAIL_CHANNEL, MAIL_TABLE, recordMailOutcomes, type DueMail } from './queries.js';
import { MAIL_SCHEDULE } from './schedule.js';

/**
 * The e-mails' deliverer (README.md, "E-mail"; migrations 0075 and 0082): the only part of the portal that
 * talks to the mail server. The outbox's worker (outbox/worker.ts) takes the due e-mails, retries
 * and wakes up as it does for every kind; this says how one e-mail is sent and what its outcome is.
 *
 * Each e-mail is unsealed and handed to SMTP_URL. Taken: sent, its body no longer kept. Refused
 * for good (a 5xx to the recipient or the message): failed at once, logged. Not taken (the server
 * down or slow, a 4xx, a refused sender or login, which the operator may still fix): tried again
 * by MAIL_SCHEDULE (schedule.ts), and failed, logged, once the attempts run out. Without SMTP_URL
 * (development) the e-mail is kept, its body in clear, and logged with its text.
 */

/**
 * How long the mail server may take (ms): to accept the connection, to greet, to answer a command.
 * A server that takes longer is an attempt that failed; the rows stay locked meanwhile.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

type WorkerConfig = Pick<Config, 'SMTP_URL' | 'MAIL_FROM' | 'MAIL_RETRY_BASE_SECONDS'>;

/** An SMTP error the mail server answered with: its code and the command it answered. */
interface SmtpError {
  message: string;
  responseCode?: number;
  command?: string;
}

/** A 5xx to the recipient (RCPT TO) or to the message (DATA): sending it again would be refused again. */
export function isPermanentRefusal(err: unknown): boolean {
  const { responseCode, command } = (err ?? {}) as SmtpError;
  return typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600 && (command === 'RCPT TO' || command === 'DATA');
}

type Body = { text: string; html: string };

/** The e-mail kind of the outbox (its rows of kind 'email'), sent through SMTP_URL. */
export function mailKind(deps: { config: WorkerConfig; log: Logger; keyEncryption: string }): OutboxKind<DueMail, Body> {
  const { config, log, keyEncryption } = deps;
  const transport: Transporter | null = config.SMTP_URL
    ? nodemailer.createTransport(new SMTPTransport({ url: config.SMTP_URL, ...SMTP_TIMEOUTS }), { from: config.MAIL_FROM })
    : null;
  return {
    name: 'e-mail',
    table: MAIL_TABLE,
    channel: MAIL_CHANNEL,
    schedule: MAIL_SCHEDULE,
    retryBaseSeconds: config.MAIL_RETRY_BASE_SECONDS,
    failureLevel: 'error',
    describe: (mail) => ({ mail_kind: mail.mail_kind }),
    record: recordMailOutcomes,
    close: () => transport?.close(),
    async deliver(mail) {
      let body: Body;
      try {
        body = JSON.parse(await unseal(keyEncryption, MAIL_BODY_PURPOSE, mail.sealed_body)) as Body;
      } catch {
        // sealed under another key-encryption secret (KEY_ENCRYPTION_KEY changed): it can never be sent
        return { result: 'refused', error: 'the sealed body cannot be read' };
      }
      if (!transport) {
        log.info(
          { to: mail.recipient, subject: mail.subject, kind: mail.mail_kind, text: body.text },
          'e-mail kept in the outbox (no SMTP_URL)',
        );
        return { result: 'kept', detail: body };
      }
      try {
        await transport.sendMail({ from: config.MAIL_FROM, to: mail.recipient, subject: mail.subject, text: body.text, html: body.html });
        return { result: 'delivered' };
      } catch (err) {
        const error = (err as SmtpError).message;
        return { result: isPermanentRefusal(err) ? 'refused' : 'failed', error };
      }
    },
  };
}

/** The e-mails' lane of the outbox's worker. */
export type MailWorker = OutboxLane<DueMail, Body>;

/** Start the e-mails' sender (jobs.ts; the test kit's portal): two runners, batches of ten. */
export function startMailWorker(
  deps: { db: Database; config: WorkerConfig; log: Logger; keyEncryption: string },
  options: LaneOptions = {},
): Promise<MailWorker> {
  return startLane(deps, mailKind(deps), { runners: 2, batchSize: 10, ...options });
}
