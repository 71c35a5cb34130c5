import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import type { AddressInfo } from 'node:net';

export interface CaughtMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  /** the links found in the text part */
  links: string[];
}

/**
 * A real SMTP server on a free port that keeps every message it receives (for tests). It can refuse
 * (`refuseNext`: a temporary 451, or a permanent 5xx, at RCPT TO; `refuseFor`: every recipient for
 * a while) and answer slowly (`delayMs`), as
 * a mail server that is busy or down does (test/foundation/mail-outbox.test.ts).
 */
export class SmtpSink {
  readonly messages: CaughtMail[] = [];
  /** every recipient the portal tried to send to (RCPT TO), accepted or refused */
  readonly attempts: string[] = [];
  /** how long each recipient waits for its answer (ms) */
  delayMs = 0;
  private refusals: { count: number; responseCode: number } = { count: 0, responseCode: 451 };
  private refusingUntil = 0;
  private waiters: (() => void)[] = [];
  private server: SMTPServer;
  port = 0;

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo: (address, _session, callback) => {
        this.attempts.push(address.address.toLowerCase());
        const answer = () => {
          const refusingForAWhile = Date.now() < this.refusingUntil;
          if (!refusingForAWhile && this.refusals.count <= 0) return callback();
          if (!refusingForAWhile) this.refusals.count--;
          const { responseCode } = this.refusals;
          const refusal = new Error(responseCode < 500 ? 'Try again later' : 'Mailbox unavailable') as Error & { responseCode: number };
          refusal.responseCode = responseCode;
          callback(refusal);
        };
        if (this.delayMs > 0) setTimeout(answer, this.delayMs).unref();
        else answer();
      },
      onData: (stream, session, callback) => {
        simpleParser(stream)
          .then((parsed) => {
            const text = parsed.text ?? '';
            this.messages.push({
              to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              subject: parsed.subject ?? '',
              text,
              html: typeof parsed.html === 'string' ? parsed.html : '',
              links: [...text.matchAll(/https?:\/\/[^\s<>"')]+/g)].map((m) => m[0]),
            });
            for (const w of this.waiters.splice(0)) w();
            callback();
          })
          .catch((err: Error) => callback(err));
      },
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.port = (this.server as unknown as { server: { address(): AddressInfo } }).server.address().port;
    return this;
  }

  /** Refuse the next `count` recipients with `responseCode` (451: try again later; 550: never); Infinity until told otherwise. */
  refuseNext(count: number, responseCode = 451): void {
    this.refusals = { count, responseCode };
  }

  /** Refuse every recipient with `responseCode` for the next `ms` (a mail server down for a while), then take them again. */
  refuseFor(ms: number, responseCode = 451): void {
    this.refusals = { count: 0, responseCode };
    this.refusingUntil = Date.now() + ms;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** Wait for an e-mail to this address (and matching the predicate), up to the timeout. */
  async waitFor(to: string, predicate: (m: CaughtMail) => boolean = () => true, timeoutMs = 10_000): Promise<CaughtMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find((m) => m.to.includes(to.toLowerCase()) && predicate(m));
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `no e-mail to ${to} within ${timeoutMs} ms (got ${this.messages.length}: ${this.messages.map((m) => `${m.to.join(',')}: ${m.subject}`).join('; ')})`,
        );
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  to(address: string): CaughtMail[] {
    return this.messages.filter((m) => m.to.includes(address.toLowerCase()));
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
