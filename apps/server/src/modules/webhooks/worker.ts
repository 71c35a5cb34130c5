import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import type { Database, Queryable } from '../../db/client.js';
import { outboundPolicy } from '../../http/outbound.js';
import { unseal } from '../../sealed.js';
import * as q from './queries.js';
import { MAX_ATTEMPTS, retryDelaySeconds } from './schedule.js';
import { DeliverySender, SECRET_PURPOSE, signerFor } from './sender.js';

/**
 * The sender of the webhooks' outbox (docs/integrations.md, "Webhooks"), started by jobs.ts and
 * stopped at shutdown. Runners take batches of due deliveries and send each batch at once:
 *
 * - On PostgreSQL a batch is taken `FOR UPDATE SKIP LOCKED` in a transaction that stays open while
 *   it is sent and its attempts are written: several instances (and runners) share the work and
 *   never send a delivery at the same time. A sender that dies (kill -9) loses its connection and
 *   with it the row locks, so its deliveries are due again for the others, or for itself after a
 *   restart: at least once, nothing lost.
 * - On the embedded PGlite (one process, one connection that a transaction would hold for all) a
 *   batch is taken without a transaction; the runners of this process skip what another is sending.
 * - A runner takes no delivery of a webhook that another runner of its process is sending to: a
 *   receiver that is slow or does not answer (up to WEBHOOK_TIMEOUT_SECONDS) holds one runner per
 *   instance, and the others go on serving the other webhooks.
 *
 * A runner is woken at once by a NOTIFY on pp_webhooks (a change committed deliveries, on any
 * instance: outbox.ts; or a runner of any instance took a full batch, so there may be more), or by
 * the worker's clock when the next delivery is due (a retry), looking at least every pollMs (the
 * fallback when a notification is lost, e.g. while the listening connection reconnects).
 */

export interface WebhookWorkerOptions {
  /** runners sending batches side by side (each holds a connection while it sends, on PostgreSQL) */
  runners?: number;
  batchSize?: number;
  pollMs?: number;
}

const DEFAULTS = { runners: 4, batchSize: 50, pollMs: 2000 };
/** Unsealed signers kept per webhook; a webhook's secret never changes. */
const MAX_SIGNERS = 10_000;

export class WebhookWorker {
  /** what this worker has done since it started (tests, the bench) */
  readonly stats = { attempts: 0, delivered: 0 };
  private readonly sender: DeliverySender;
  private readonly options: Required<WebhookWorkerOptions>;
  private readonly signers = new Map<string, ReturnType<typeof signerFor>>();
  private readonly sending = new Set<string>();
  private readonly busyWebhooks = new Set<string>();
  private readonly waiting: (() => void)[] = [];
  private wakePending = false;
  private stopping = false;
  private runners: Promise<void>[] = [];
  private stopListening: (() => Promise<void>) | undefined;
  private claimChain: Promise<unknown> = Promise.resolve();
  private ticker: NodeJS.Timeout | undefined;
  private tickGeneration = 0;

  constructor(
    private readonly deps: { db: Database; config: Config; log: Logger; keyEncryption: string },
    options: WebhookWorkerOptions = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.sender = new DeliverySender({
      timeoutMs: deps.config.WEBHOOK_TIMEOUT_SECONDS * 1000,
      policy: outboundPolicy(deps.config),
    });
  }

  /** Listen for new deliveries, start the runners and the clock that wakes them for retries. */
  async start(): Promise<void> {
    this.stopListening = await this.deps.db.listen('pp_webhooks', () => this.wake(), { dedicated: true });
    this.runners = Array.from({ length: this.options.runners }, () => this.run());
    this.tick();
  }

  /** Stop taking deliveries; the batches being sent finish (each within the time-out) and are written. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.ticker);
    for (const wake of this.waiting.splice(0)) wake();
    await this.stopListening?.().catch(() => undefined);
    await Promise.all(this.runners);
    this.sender.close();
  }

  /** Wake one sleeping runner (or the next one to fall asleep). */
  wake(): void {
    const runner = this.waiting.shift();
    if (runner) runner();
    else this.wakePending = true;
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      let sent = 0;
      try {
        sent = await this.batch();
      } catch (err) {
        this.deps.log.warn({ err }, 'webhook deliveries: a batch could not be taken or written; it is tried again');
      }
      if (sent === 0 && !this.stopping) await this.sleep();
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

  /**
   * The clock: wakes a runner when a pending delivery is due (a retry's time has come, or a
   * notification was missed), then looks again when the next one is due, at least every pollMs.
   */
  private tick(): void {
    if (this.stopping) return;
    const generation = ++this.tickGeneration;
    clearTimeout(this.ticker);
    void q
      .msUntilNextDue(this.deps.db)
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

  /** Take, send and write one batch; returns how many were sent. */
  private async batch(): Promise<number> {
    const { db } = this.deps;
    let due: q.DueDelivery[] = [];
    try {
      const result =
        db.kind === 'postgres'
          ? await db.transaction(async (tx) => this.sendAndRecord(tx, (due = await this.claim(tx))))
          : await this.sendAndRecord(db, (due = await this.claim(db)));
      // a retry was set (and committed): the clock looks again when it is due
      if (result.retrying) this.tick();
      return result.sent;
    } finally {
      for (const row of due) {
        this.sending.delete(row.id);
        this.busyWebhooks.delete(row.webhook_id);
      }
    }
  }

  /**
   * Take due deliveries, one runner of this process at a time: none this process is sending (on
   * PGlite no transaction holds them), and none of a webhook this process is sending to already,
   * so that a receiver that is slow or does not answer holds one runner at most, not all of them
   * (its next deliveries go together in one batch once the one in flight has its outcome).
   */
  private claim(tx: Queryable): Promise<q.DueDelivery[]> {
    const run = this.claimChain.then(async () => {
      const rows = await q.claimDue(tx, this.options.batchSize, [...this.sending], [...this.busyWebhooks]);
      for (const row of rows) {
        this.sending.add(row.id);
        this.busyWebhooks.add(row.webhook_id);
      }
      return rows;
    });
    this.claimChain = run.catch(() => undefined);
    return run;
  }

  private async sendAndRecord(tx: Queryable, due: q.DueDelivery[]): Promise<{ sent: number; retrying: boolean }> {
    if (!due.length) return { sent: 0, retrying: false };
    // a full batch: there may be more, for another runner of this instance or of another one
    if (due.length === this.options.batchSize) {
      this.wake();
      await q.notifySenders(this.deps.db).catch(() => undefined);
    }
    const outcomes = await Promise.all(due.map((delivery) => this.attempt(delivery)));
    await q.recordAttempts(tx, outcomes);
    this.stats.attempts += outcomes.length;
    this.stats.delivered += outcomes.filter((o) => o.state === 'succeeded').length;
    return { sent: due.length, retrying: outcomes.some((o) => o.state === 'pending') };
  }

  /** One attempt of one delivery, with what becomes of it. */
  private async attempt(delivery: q.DueDelivery): Promise<q.AttemptOutcome> {
    const { config, log } = this.deps;
    const attemptedAt = new Date();
    let result: { ok: boolean; status: number | null; durationMs: number; error: string | null };
    try {
      const signer = await this.signerOf(delivery);
      result = await this.sender.send(delivery.url, signer, { id: delivery.id, payload: delivery.payload });
    } catch (err) {
      // the secret cannot be unsealed (KEY_ENCRYPTION_KEY changed): nothing was sent
      log.error({ err, webhook_id: delivery.webhook_id }, 'webhook: the signing secret cannot be read');
      result = { ok: false, status: null, durationMs: 0, error: 'the signing secret cannot be read' };
    }
    const attempts = delivery.attempts + 1;
    const retryIn = result.ok ? null : retryDelaySeconds(attempts, config.WEBHOOK_RETRY_BASE_SECONDS);
    const state = result.ok ? 'succeeded' : retryIn === null ? 'failed' : 'pending';
    const entry = {
      delivery_id: delivery.id,
      webhook_id: delivery.webhook_id,
      event_type: delivery.event_type,
      attempt: attempts,
      status: result.status,
      duration_ms: result.durationMs,
      error: result.error,
    };
    if (result.ok) log.debug(entry, 'webhook delivered');
    else if (state === 'failed') log.warn({ ...entry, max_attempts: MAX_ATTEMPTS }, 'webhook delivery failed: no attempts left');
    else log.info({ ...entry, retry_in_seconds: retryIn }, 'webhook delivery attempt failed; it is tried again');
    return { deliveryId: delivery.id, attemptedAt, ...result, state, retryInSeconds: retryIn };
  }

  private async signerOf(delivery: q.DueDelivery) {
    const known = this.signers.get(delivery.webhook_id);
    if (known) return known;
    const signer = signerFor(await unseal(this.deps.keyEncryption, SECRET_PURPOSE, delivery.secret_sealed));
    if (this.signers.size >= MAX_SIGNERS) this.signers.clear();
    this.signers.set(delivery.webhook_id, signer);
    return signer;
  }
}

/** Start the webhooks' sender (jobs.ts; tests start it themselves). */
export async function startWebhookWorker(
  deps: ConstructorParameters<typeof WebhookWorker>[0],
  options: WebhookWorkerOptions = {},
): Promise<WebhookWorker> {
  const worker = new WebhookWorker(deps, options);
  await worker.start();
  return worker;
}

const SWEEP_BATCH = 5000;

/** The hourly job (jobs.ts): finished deliveries older than `days` removed, a batch per statement. Returns how many. */
export async function sweepFinishedDeliveries(db: Queryable, days: number): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await q.deleteFinishedDeliveries(db, days, SWEEP_BATCH);
    total += deleted;
    if (deleted < SWEEP_BATCH) return total;
  }
}
