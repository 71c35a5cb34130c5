import type { FastifyInstance, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import type { Database } from '../db/client.js';
import { AppError, problemBody } from './problem.js';

/**
 * Counters shared by every instance of the portal: in PostgreSQL, or in Redis when REDIS_URL is
 * set. Used by the general request limit and by the throttles of login and password flows.
 */
export interface CounterStore {
  /** Add n to the counter of key in its fixed window; returns the new count and when it resets. */
  add(key: string, n: number, windowMs: number): Promise<{ count: number; resetAt: number }>;
  reset(key: string): Promise<void>;
}

export function postgresCounterStore(db: Database): CounterStore {
  let lastSweep = 0;
  return {
    async add(key, n, windowMs) {
      const { rows } = await db.query<{ hits: number; reset_at: Date | string }>(
        `INSERT INTO rate_limits (key, hits, reset_at) VALUES ($1, $2, now() + make_interval(secs => $3::double precision / 1000))
         ON CONFLICT (key) DO UPDATE SET
           hits = CASE WHEN rate_limits.reset_at <= now() THEN $2 ELSE rate_limits.hits + $2 END,
           reset_at = CASE WHEN rate_limits.reset_at <= now() THEN now() + make_interval(secs => $3::double precision / 1000) ELSE rate_limits.reset_at END
         RETURNING hits, reset_at`,
        [key, n, windowMs],
      );
      const row = rows[0]!;
      const now = Date.now();
      if (now - lastSweep > 60_000) {
        lastSweep = now;
        void db.query('DELETE FROM rate_limits WHERE reset_at < now()').catch(() => undefined);
      }
      return { count: row.hits, resetAt: new Date(row.reset_at).getTime() };
    },
    async reset(key) {
      await db.query('DELETE FROM rate_limits WHERE key = $1', [key]);
    },
  };
}

export function redisCounterStore(redis: Redis): CounterStore {
  return {
    async add(key, n, windowMs) {
      const k = `pp:rl:${key}`;
      const result = await redis.multi().incrby(k, n).pexpire(k, windowMs, 'NX').pttl(k).exec();
      const count = Number(result?.[0]?.[1] ?? n);
      const ttl = Number(result?.[2]?.[1] ?? windowMs);
      return { count, resetAt: Date.now() + (ttl > 0 ? ttl : windowMs) };
    },
    async reset(key) {
      await redis.del(`pp:rl:${key}`);
    },
  };
}

/**
 * Count a hit against a limit; throws 429 with Retry-After when it is exceeded.
 * Used for login, e-mail login, forgot and reset password, per account and per IP.
 */
export async function throttle(store: CounterStore, key: string, max: number, windowSeconds: number): Promise<void> {
  const { count, resetAt } = await store.add(key, 1, windowSeconds * 1000);
  if (count > max) {
    const retryAfter = Math.max(1, Math.ceil((resetAt - Date.now()) / 1000));
    throw new AppError('too_many_requests', { headers: { 'retry-after': String(retryAfter) } });
  }
}

/**
 * The general limit on requests per client address. Every hit is counted locally at once and
 * added to the shared counter in batches (every 250 ms), so a hot path costs no database round
 * trip while instances still see each other's traffic.
 */
class BatchedSharedStore {
  private readonly entries = new Map<string, { pending: number; shared: number; resetAt: number }>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly counters: CounterStore,
    private readonly windowMs: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  incr(key: string, callback: (err: Error | null, result?: { current: number; ttl: number }) => void): void {
    const now = Date.now();
    let entry = this.entries.get(key);
    if (!entry || entry.resetAt <= now) {
      entry = { pending: 0, shared: 0, resetAt: now + this.windowMs };
      this.entries.set(key, entry);
    }
    entry.pending += 1;
    this.schedule();
    callback(null, { current: entry.shared + entry.pending, ttl: entry.resetAt - now });
  }

  child(): BatchedSharedStore {
    return this;
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, 250);
    this.timer.unref();
  }

  async flush(): Promise<void> {
    const now = Date.now();
    for (const [key, entry] of this.entries) {
      if (entry.resetAt <= now) {
        this.entries.delete(key);
        continue;
      }
      if (entry.pending === 0) continue;
      const n = entry.pending;
      entry.pending = 0;
      try {
        const { count, resetAt } = await this.counters.add(`ip:${key}`, n, this.windowMs);
        entry.shared = count - entry.pending;
        entry.resetAt = Math.min(entry.resetAt, resetAt);
      } catch (err) {
        entry.pending += n;
        this.onError(err);
      }
    }
  }
}

export async function registerRateLimit(
  app: FastifyInstance,
  options: { counters: CounterStore; max: number; windowSeconds: number },
): Promise<void> {
  const windowMs = options.windowSeconds * 1000;
  const shared = new BatchedSharedStore(options.counters, windowMs, (err) => app.log.warn({ err }, 'rate limit counters unavailable'));
  await app.register(rateLimit, {
    global: true,
    max: options.max,
    timeWindow: windowMs,
    // a class is expected; hand over the one shared store
    store: function Store() {
      return shared;
    } as unknown as never,
    allowList: (request: FastifyRequest) => !(request.url.startsWith('/api') || request.url.startsWith('/connect')),
    errorResponseBuilder: (request, context) => {
      const err = new AppError('too_many_requests', { headers: { 'retry-after': String(Math.ceil(context.ttl / 1000)) } });
      return Object.assign(new Error(err.message), { statusCode: 429, problem: problemBody(request, err) });
    },
  });
}
