import type { Logger } from 'pino';
import type { Database, NotifyChannel, Queryable } from '../db/client.js';
import { claimDue, msUntilNextDue, notifySenders, type OutboxRow, type OutboxTable, type Outcome } from './queries.js';
import { maxAttempts, retryDelaySeconds, type RetrySchedule } from './schedule.js';

// the row and outcome types are the queries' (which write them): named here too for the kinds
export type { OutboxRow, Outcome };

/**
 * The one sender of everything that leaves through an outbox (CONVENTIONS.md, "Events leave
 * through an outbox"; docs/decisions/024-mail-outbox.md): e-mails, webhook deliveries and
 * back-channel logouts. A change writes its row in its own transaction; this worker sends it after
 * commit, by the kind's deliverer (an OutboxKind), and writes what became of it. One worker runs a
 * lane per kind (jobs.ts), each with its runners, its table and its notification channel; the
 * rules are written here once:
 *
 * - Claim. On PostgreSQL a batch of due rows is taken `FOR UPDATE SKIP LOCKED` in a transaction
 *   that stays open while it is sent and its outcome written: several instances (and runners)
 *   share the work and never send one row at the same time. A sender that dies (kill -9) loses its
 *   connection and with it the row locks: its rows are due again for the others, or for itself
 *   after a restart. Only a row delivered in the instant before the crash, before its outcome was
 *   written, can go twice. On the embedded PGlite (one process, one connection that a transaction
 *   would hold for all) a batch is taken without a transaction; the runners of this process skip
 *   what another is sending. A kind with a key (webhooks: the webhook) has no two runners of a
 *   process sending to one key: a receiver that is slow holds one runner, not all of them.
 * - Retry. A delivery that failed for now is tried again after the kind's schedule
 *   (schedule.ts), and has failed once its attempts run out; one refused for good fails at once.
 * - Wake-up. A runner is woken at once by a NOTIFY on the kind's channel (a row was written, on
 *   any instance; or a runner of any instance took a full batch), or by the lane's clock when the
 *   next retry is due, looking at least every pollMs (the fallback when a notification is lost).
 */

/**
 * What one attempt of a deliverer gave. delivered: the receiver took it. kept: nothing to send to
 * (e-mail without SMTP_URL: kept for the developer), no attempt counted. refused: refused for good,
 * never tried again. failed: not taken for now, tried again by the schedule. `detail` is the kind's
 * own record of the attempt (a webhook's status and duration).
 */
export type Attempt<D> =
  { result: 'delivered' | 'kept'; error?: null; detail?: D } | { result: 'refused' | 'failed'; error: string; detail?: D };

/** A kind of row that leaves through the outbox: where its rows are, how one is delivered, how its outcome is written. */
export interface OutboxKind<R extends OutboxRow, D = undefined> {
  /** for the logs: 'e-mail', 'webhook', 'back-channel logout' */
  name: string;
  table: OutboxTable;
  channel: NotifyChannel;
  schedule: RetrySchedule;
  retryBaseSeconds: number;
  /** the key of a row (table.keyColumn's value): no two runners of a process send to one key */
  keyOf?(row: R): string;
  /** One attempt; throws only for what is not the receiver's answer (it is then a failed attempt). */
  deliver(row: R): Promise<Attempt<D>>;
  /** Write a batch of outcomes, in the claim's transaction. */
  record(tx: Queryable, outcomes: Outcome<R, D>[]): Promise<void>;
  /** what the logs say of a row besides its id */
  describe?(row: R): Record<string, unknown>;
  /** the log level of a row that failed for good (a receiver's fault: warn; the portal's own: error) */
  failureLevel?: 'warn' | 'error';
  /** called at stop, after the last batch (close kept-alive connections) */
  close?(): void;
}

export interface LaneOptions {
  /** runners sending batches side by side (each holds a connection while it sends, on PostgreSQL) */
  runners?: number;
  batchSize?: number;
  pollMs?: number;
}

const DEFAULTS = { runners: 2, batchSize: 10, pollMs: 2000 };

/** One kind's sender: its runners, its clock, its notifications. */
export class OutboxLane<R extends OutboxRow, D = undefined> {
  /** what this lane has done since it started (tests, the bench) */
  readonly stats = { attempts: 0, delivered: 0 };
  private readonly options: Required<LaneOptions>;
  private readonly sending = new Set<string>();
  private readonly busyKeys = new Set<string>();
  private readonly waiting: (() => void)[] = [];
  private wakePending = false;
  private stopping = false;
  private runners: Promise<void>[] = [];
  private stopListening: (() => Promise<void>) | undefined;
  private claimChain: Promise<unknown> = Promise.resolve();
  private ticker: NodeJS.Timeout | undefined;
  private tickGeneration = 0;

  constructor(
    private readonly deps: { db: Database; log: Logger },
    private readonly kind: OutboxKind<R, D>,
    options: LaneOptions = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  /** Listen for written rows, start the runners and the clock that wakes them for retries. */
  async start(): Promise<this> {
    this.stopListening = await this.deps.db.listen(this.kind.channel, () => this.wake(), { dedicated: true });
    this.runners = Array.from({ length: this.options.runners }, () => this.run());
    this.tick();
    return this;
  }

  /** Stop taking rows; the batches being sent finish (each within the deliverer's time-outs) and are written. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.ticker);
    for (const wake of this.waiting.splice(0)) wake();
    await this.stopListening?.().catch(() => undefined);
    await Promise.all(this.runners);
    this.kind.close?.();
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
        this.deps.log.warn({ err, kind: this.kind.name }, 'outbox: a batch could not be taken or written; it is tried again');
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

  /** The clock: wakes a runner when a pending row is due, then looks again when the next one is, at least every pollMs. */
  private tick(): void {
    if (this.stopping) return;
    const generation = ++this.tickGeneration;
    clearTimeout(this.ticker);
    void msUntilNextDue(this.deps.db, this.kind.table)
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
    let due: R[] = [];
    try {
      const result =
        db.kind === 'postgres'
          ? await db.transaction(async (tx) => this.sendAndRecord(tx, (due = await this.claim(tx))))
          : await this.sendAndRecord(db, (due = await this.claim(db)));
      // a retry was set (and committed): the clock looks again when it is due
      if (result.retrying) this.tick();
      return result.taken;
    } finally {
      for (const row of due) {
        this.sending.delete(row.id);
        if (this.kind.keyOf) this.busyKeys.delete(this.kind.keyOf(row));
      }
    }
  }

  /** Take due rows, one runner of this process at a time: none this process is sending, none of a key it sends to. */
  private claim(tx: Queryable): Promise<R[]> {
    const run = this.claimChain.then(async () => {
      const rows = await claimDue<R>(tx, this.kind.table, this.options.batchSize, [...this.sending], [...this.busyKeys]);
      for (const row of rows) {
        this.sending.add(row.id);
        if (this.kind.keyOf) this.busyKeys.add(this.kind.keyOf(row));
      }
      return rows;
    });
    this.claimChain = run.catch(() => undefined);
    return run;
  }

  private async sendAndRecord(tx: Queryable, due: R[]): Promise<{ taken: number; retrying: boolean }> {
    if (!due.length) return { taken: 0, retrying: false };
    // a full batch: there may be more, for another runner of this instance or of another one
    if (due.length === this.options.batchSize) {
      this.wake();
      await notifySenders(this.deps.db, this.kind.channel).catch(() => undefined);
    }
    const outcomes = await Promise.all(due.map((row) => this.attempt(row)));
    await this.kind.record(tx, outcomes);
    const attempted = outcomes.filter((o) => o.state !== 'kept');
    this.stats.attempts += attempted.length;
    this.stats.delivered += attempted.filter((o) => o.state === 'delivered').length;
    return { taken: due.length, retrying: outcomes.some((o) => o.state === 'pending') };
  }

  /** One attempt of one row, with what becomes of it. */
  private async attempt(row: R): Promise<Outcome<R, D>> {
    const { kind } = this;
    const { log } = this.deps;
    const attemptedAt = new Date();
    const about = { kind: kind.name, outbox_id: row.id, attempt: row.attempts + 1, ...kind.describe?.(row) };
    let attempt: Attempt<D>;
    try {
      attempt = await kind.deliver(row);
    } catch (err) {
      attempt = { result: 'failed', error: err instanceof Error ? err.message : String(err) };
    }
    const done = (state: Outcome<R, D>['state'], retryInSeconds: number | null = null): Outcome<R, D> => ({
      row,
      state,
      attemptedAt,
      error: attempt.error ?? null,
      retryInSeconds,
      detail: attempt.detail,
    });
    if (attempt.result === 'delivered') {
      log.debug(about, `${kind.name} delivered`);
      return done('delivered');
    }
    if (attempt.result === 'kept') return done('kept');
    const level = kind.failureLevel ?? 'warn';
    if (attempt.result === 'refused') {
      log[level]({ ...about, error: attempt.error }, `${kind.name} refused for good; it is not sent again`);
      return done('failed');
    }
    const retryIn = retryDelaySeconds(kind.schedule, row.attempts + 1, kind.retryBaseSeconds);
    if (retryIn === null) {
      log[level]({ ...about, error: attempt.error, max_attempts: maxAttempts(kind.schedule) }, `${kind.name} failed: no attempts left`);
      return done('failed');
    }
    log.warn({ ...about, error: attempt.error, retry_in_seconds: Math.round(retryIn) }, `${kind.name} not delivered; it is tried again`);
    return done('pending', retryIn);
  }
}

/** Start one kind's sender (jobs.ts, through startOutbox; tests start single lanes). */
export function startLane<R extends OutboxRow, D>(
  deps: { db: Database; log: Logger },
  kind: OutboxKind<R, D>,
  options: LaneOptions = {},
): Promise<OutboxLane<R, D>> {
  return new OutboxLane(deps, kind, options).start();
}
