import nodemailer, { type Transporter } from 'nodemailer';
import SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import type { Database, Queryable } from '../../db/client.js';
import { unseal } from '../../sealed.js';
import { MAIL_BODY_PURPOSE } from './mailer.js';
import * as q from './queries.js';
import { MAX_ATTEMPTS, mailRetryDelaySeconds } from './schedule.js';

/**
 * The sender of the e-mails' outbox (README.md, "E-mail"; migration 0075), started by
 * jobs.ts (and the test kit's portal) and stopped at shutdown. The only part of the portal that
 * talks to the mail server. It follows the webhooks' sender (modules/webhooks/worker.ts):
 *
 * - On PostgreSQL a batch of due e-mails is taken `FOR UPDATE SKIP LOCKED` in a transaction that
 *   stays open while it is sent and its outcome written: several instances (and runners) share the
 *   work and never send one e-mail at the same time, so two instances never send it twice. A
 *   sender that dies (kill -9) loses its connection and with it the row locks: its e-mails are due
 *   again for the others, or for itself after a restart. Only an e-mail the mail server took in the
 *   instant before the crash, before its outcome was written, can come twice.
 * - On the embedded PGlite (one process, one connection that a transaction would hold for all) a
 *   batch is taken without a transaction; the runners of this process skip what another is sending.
 *
 * Each e-mail is unsealed and handed to SMTP_URL. Taken: sent, its body no longer kept. Refused
 * for good (a 5xx to the recipient or the message): failed at once, logged. Not taken (the server
 * down or slow, a 4xx, a refused sender or login, which the operator may still fix): tried again
 * after mailRetryDelaySeconds (schedule.ts), and failed, logged, once the attempts run out.
 * Without SMTP_URL (development) the e-mail is kept, its body in clear, and logged with its text.
 *
 * A runner is woken at once by a NOTIFY on pp_mail (an e-mail was written, on any instance; or a
 * runner of any instance took a full batch), or by the worker's clock when the next retry is due,
 * looking at least every pollMs (the fallback when a notification is lost).
 */

export interface MailWorkerOptions {
  /** runners sending batches side by side (each holds a connection while it sends, on PostgreSQL) */
  runners?: number;
  batchSize?: number;
  pollMs?: number;
}

const DEFAULTS = { runners: 2, batchSize: 10, pollMs: 2000 };

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

export class MailWorker {
  /** what this worker has done since it started (tests) */
  readonly stats = { attempts: 0, sent: 0 };
  private readonly transport: Transporter | null;
  private readonly options: Required<MailWorkerOptions>;
  private readonly sending = new Set<string>();
  private readonly waiting: (() => void)[] = [];
  private wakePending = false;
  private stopping = false;
  private runners: Promise<void>[] = [];
  private stopListening: (() => Promise<void>) | undefined;
  private claimChain: Promise<unknown> = Promise.resolve();
  private ticker: NodeJS.Timeout | undefined;
  private tickGeneration = 0;

  constructor(
    private readonly deps: { db: Database; config: WorkerConfig; log: Logger; keyEncryption: string },
    options: MailWorkerOptions = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    const { SMTP_URL: url, MAIL_FROM: from } = deps.config;
    this.transport = url ? nodemailer.createTransport(new SMTPTransport({ url, ...SMTP_TIMEOUTS }), { from }) : null;
  }

  /** Listen for written e-mails, start the runners and the clock that wakes them for retries. */
  async start(): Promise<void> {
    this.stopListening = await this.deps.db.listen(q.MAIL_CHANNEL, () => this.wake(), { dedicated: true });
    this.runners = Array.from({ length: this.options.runners }, () => this.run());
    this.tick();
  }

  /** Stop taking e-mails; the batches being sent finish (each within the SMTP time-outs) and are written. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.ticker);
    for (const wake of this.waiting.splice(0)) wake();
    await this.stopListening?.().catch(() => undefined);
    await Promise.all(this.runners);
    this.transport?.close();
  }

  /** Wake one sleeping runner (or the next one to fall asleep). */
  wake(): void {
    const runner = this.waiting.shift();
    if (runner) runner();
    else this.wakePending = true;
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      let taken = 0;
      try {
        taken = await this.batch();
      } catch (err) {
        this.deps.log.warn({ err }, 'e-mail outbox: a batch could not be taken or written; it is tried again');
      }
      if (taken === 0 && !this.stopping) await this.sleep();
    }
  }

  /** Until woken (wake: a notification, a full batch, the clock). */
  private sleep(): Promise<void> {
    if (this.wakePending) {
      this.wakePending = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** The clock: wakes a runner when a pending e-mail is due, then looks again when the next one is, at least every pollMs. */
  private tick(): void {
    if (this.stopping) return;
    const generation = ++this.tickGeneration;
    clearTimeout(this.ticker);
    void q
      .msUntilNextMailDue(this.deps.db)
      .catch(() => null)
      .then((dueInMs) => {
        // stopped, or a newer look began meanwhile (it keeps the clock)
        if (this.stopping || generation !== this.tickGeneration) return;
        if (dueInMs === 0) this.wake();
        const nextMs = dueInMs === null || dueInMs === 0 ? this.options.pollMs : Math.min(dueInMs + 5, this.options.pollMs);
        this.ticker = setTimeout(() => this.tick(), nextMs);
        this.ticker.unref();
      });
  }

  /** Take, send and write one batch; returns how many were taken. */
  private async batch(): Promise<number> {
    const { db } = this.deps;
    let due: q.DueMail[] = [];
    try {
      const result =
        db.kind === 'postgres'
          ? await db.transaction(async (tx) => this.sendAndRecord(tx, (due = await this.claim(tx))))
          : await this.sendAndRecord(db, (due = await this.claim(db)));
      // a retry was set (and committed): the clock looks again when it is due
      if (result.retrying) this.tick();
      return result.taken;
    } finally {
      for (const mail of due) this.sending.delete(mail.id);
    }
  }

  /** Take due e-mails, one runner of this process at a time, none this process is sending already (PGlite). */
  private claim(tx: Queryable): Promise<q.DueMail[]> {
    const run = this.claimChain.then(async () => {
      const rows = await q.claimDueMails(tx, this.options.batchSize, [...this.sending]);
      for (const row of rows) this.sending.add(row.id);
      return rows;
    });
    this.claimChain = run.catch(() => undefined);
    return run;
  }

  private async sendAndRecord(tx: Queryable, due: q.DueMail[]): Promise<{ taken: number; retrying: boolean }> {
    if (!due.length) return { taken: 0, retrying: false };
    // a full batch: there may be more, for another runner of this instance or of another one
    if (due.length === this.options.batchSize) {
      this.wake();
      await q.notifyMailSenders(this.deps.db).catch(() => undefined);
    }
    const outcomes = await Promise.all(due.map((mail) => this.attempt(mail)));
    await q.recordMailOutcomes(tx, outcomes);
    const attempted = outcomes.filter((o) => o.state !== 'kept');
    this.stats.attempts += attempted.length;
    this.stats.sent += attempted.filter((o) => o.state === 'sent').length;
    return { taken: due.length, retrying: outcomes.some((o) => o.state === 'pending') };
  }

  /** One attempt of one e-mail, with what becomes of it. */
  private async attempt(mail: q.DueMail): Promise<q.MailOutcome> {
    const { config, log, keyEncryption } = this.deps;
    const attemptedAt = new Date();
    const about = { mail_id: mail.id, kind: mail.kind, attempt: mail.attempts + 1 };
    let body: { text: string; html: string };
    try {
      body = JSON.parse(await unseal(keyEncryption, MAIL_BODY_PURPOSE, mail.sealed_body)) as { text: string; html: string };
    } catch (err) {
      // sealed under another key-encryption secret (KEY_ENCRYPTION_KEY changed): it can never be sent
      log.error({ err, ...about }, 'e-mail: its sealed body cannot be read; it is not sent');
      return { id: mail.id, state: 'failed', attemptedAt, error: 'the sealed body cannot be read', retryInSeconds: null };
    }
    if (!this.transport) {
      log.info({ to: mail.recipient, subject: mail.subject, kind: mail.kind, text: body.text }, 'e-mail kept in the outbox (no SMTP_URL)');
      return { id: mail.id, state: 'kept', attemptedAt, error: null, retryInSeconds: null, kept: body };
    }
    try {
      await this.transport.sendMail({
        from: config.MAIL_FROM,
        to: mail.recipient,
        subject: mail.subject,
        text: body.text,
        html: body.html,
      });
      log.debug(about, 'e-mail sent');
      return { id: mail.id, state: 'sent', attemptedAt, error: null, retryInSeconds: null };
    } catch (err) {
      const error = (err as SmtpError).message;
      if (isPermanentRefusal(err)) {
        log.error({ ...about, error }, 'e-mail refused for good by the mail server; it is not sent again');
        return { id: mail.id, state: 'failed', attemptedAt, error, retryInSeconds: null };
      }
      const retryIn = mailRetryDelaySeconds(mail.attempts + 1, config.MAIL_RETRY_BASE_SECONDS);
      if (retryIn === null) {
        log.error({ ...about, error, max_attempts: MAX_ATTEMPTS }, 'e-mail failed: the mail server did not take it, no attempts left');
        return { id: mail.id, state: 'failed', attemptedAt, error, retryInSeconds: null };
      }
      log.warn({ ...about, error, retry_in_seconds: Math.round(retryIn) }, 'e-mail not taken by the mail server; it is sent again');
      return { id: mail.id, state: 'pending', attemptedAt, error, retryInSeconds: retryIn };
    }
  }
}

/** Start the e-mails' sender (jobs.ts; the test kit's portal). */
export async function startMailWorker(
  deps: ConstructorParameters<typeof MailWorker>[0],
  options: MailWorkerOptions = {},
): Promise<MailWorker> {
  const worker = new MailWorker(deps, options);
  await worker.start();
  return worker;
}
