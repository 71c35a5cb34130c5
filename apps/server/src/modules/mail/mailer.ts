import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { Database } from '../../db/client.js';
import { recordInOutbox } from './queries.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** what the e-mail is, for the outbox and the logs: 'invitation', 'password-reset', … */
  kind: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * Sends through SMTP_URL when configured. Without it (development), e-mails are kept in the
 * mail_outbox table and logged, links included, so a developer can follow them.
 * Every e-mail is recorded in the outbox either way, with its delivery result (without its body
 * when it went through SMTP).
 */
export function createMailer(options: { smtpUrl: string | undefined; from: string; db: Database; log: Logger }): Mailer {
  const transport: Transporter | null = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl, { from: options.from }) : null;
  return {
    async send(message) {
      let error: string | null = null;
      if (transport) {
        try {
          await transport.sendMail({
            from: options.from,
            to: message.to,
            subject: message.subject,
            text: message.text,
            html: message.html,
          });
        } catch (err) {
          error = (err as Error).message;
          options.log.error({ err, kind: message.kind }, 'e-mail could not be sent');
        }
      } else {
        options.log.info(
          { to: message.to, subject: message.subject, kind: message.kind, text: message.text },
          'e-mail kept in the outbox (no SMTP_URL)',
        );
      }
      // With SMTP the record keeps no body: links carry single-use secrets (reset and invitation
      // codes) that must not rest in the database in clear. Without SMTP (development) the body is
      // the only way to follow them.
      const redacted = '(sent through SMTP; body not kept)';
      await recordInOutbox(options.db, {
        recipient: message.to,
        subject: message.subject,
        textBody: transport ? redacted : message.text,
        htmlBody: transport ? redacted : message.html,
        kind: message.kind,
        sent: transport !== null && error === null,
        error,
      });
    },
    close() {
      transport?.close();
    },
  };
}
