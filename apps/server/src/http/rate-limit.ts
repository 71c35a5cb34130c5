import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { isScimPath, type Credential, type Credentials } from './credentials.js';
import { isApiPath, routerPath } from './csrf.js';
import { AppError, sendProblem } from './problem.js';

/**
 * Counters shared by every instance of the portal: in PostgreSQL, or in Redis when REDIS_URL is
 * set (modules/counters/stores.ts). Used by the general request limit and by the limits of
 * guesses (Guess). Keys are stored as given: callers normalise them (identity/login-throttle.ts:
 * e-mail addresses as PostgreSQL's lower() does, the same as the account lookup).
 */
export interface CounterStore {
  /**
   * Where the counters are kept. 'postgres': rows of rate_limits in the portal's own database, so
   * that a caller may take counts inside a statement of its own (counterAddSql in
   * modules/counters/queries.ts; the password step, identity/queries.ts), saving a round trip.
   * 'redis': in Redis, only through these methods.
   */
  readonly kind: 'postgres' | 'redis';
  /** Add n (may be negative, never below 0) to the counter of key in its fixed window; returns the new count and when it resets. */
  add(key: string, n: number, windowMs: number): Promise<{ count: number; resetAt: number }>;
  /** add() for several keys in one round trip; the results in the keys' order. */
  addAll(keys: readonly string[], n: number, windowMs: number): Promise<{ count: number; resetAt: number }[]>;
  reset(key: string): Promise<void>;
}

/** A limit on guesses: the key of its counter, and how many guesses a window allows. */
export interface GuessLimit {
  key: string;
  max: number;
}

/**
 * The one counting rule of every guess (docs/security.md, "Limits and thresholds"): passwords,
 * codes of an authenticator app, recovery codes, passkeys, reset codes, forgot-password e-mails.
 * Before anything is checked, the guess is taken: +1 on the counter of every limit that applies,
 * at once (CounterStore.addAll, one round trip; or in the caller's own statement, counterAddSql).
 * Past a limit the guesses are given back and the answer is 429 with Retry-After, with nothing
 * checked. So N concurrent guesses are checked at most as often as the limits allow, whatever
 * their order. The caller gives the guess back when the answer was right (or when nothing could
 * be checked); a wrong answer keeps it.
 */
export class Guess {
  private constructor(
    private readonly counters: CounterStore,
    private readonly keys: readonly string[],
    private readonly windowMs: number,
  ) {}

  /**
   * Take one guess from each of `limits` (a fixed window of `windowMs`). `taken`: the counts a
   * caller's own statement already added, in the order of `limits` (the password step,
   * identity/queries.ts passwordStep); without it they are added here. Throws the 429 (the guesses
   * given back) when one of the limits is used up.
   */
  static async take(
    counters: CounterStore,
    limits: readonly GuessLimit[],
    windowMs: number,
    taken?: readonly { count: number; resetAt: number }[] | null,
  ): Promise<Guess> {
    const guess = new Guess(
      counters,
      limits.map((l) => l.key),
      windowMs,
    );
    const counts = taken ?? (await counters.addAll(guess.keys, 1, windowMs));
    const over = counts.filter((c, i) => c.count > limits[i]!.max);
    if (over.length) {
      await guess.giveBack();
      throw tooManyRequests(Math.max(...over.map((c) => c.resetAt)));
    }
    return guess;
  }

  /** Give the guesses back: the answer was right, or it was refused before its check. */
  async giveBack(): Promise<void> {
    await this.counters.addAll(this.keys, -1, this.windowMs);
  }
}

/** The 429 of every limit: a problem with Retry-After (seconds until the window ends). */
export function tooManyRequests(resetAt: number): AppError {
  const retryAfter = Math.max(1, Math.ceil((resetAt - Date.now()) / 1000));
  return new AppError('too_many_requests', { headers: { 'retry-after': String(retryAfter) } });
}

/**
 * Counts hits locally at once and adds them to the shared counter in batches (every 250 ms), so
 * a hot path costs no database round trip while instances still see each other's traffic.
 */
export class BatchedSharedStore {
  /** per key: the shared total last seen, the hits on their way to it, and those not sent yet */
  private readonly entries = new Map<string, { pending: number; inFlight: number; shared: number; resetAt: number }>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly counters: CounterStore,
    private readonly windowMs: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Count one hit of key; returns the count in the current window and when it resets. */
  incr(key: string): { count: number; resetAt: number } {
    const now = Date.now();
    let entry = this.entries.get(key);
    if (!entry || entry.resetAt <= now) {
      entry = { pending: 0, inFlight: 0, shared: 0, resetAt: now + this.windowMs };
      this.entries.set(key, entry);
    }
    entry.pending += 1;
    this.schedule();
    return { count: entry.shared + entry.inFlight + entry.pending, resetAt: entry.resetAt };
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
      // counted while on its way, so that no hit is missing from the count meanwhile
      entry.inFlight += n;
      try {
        const { count, resetAt } = await this.counters.add(key, n, this.windowMs);
        // the shared total now holds this batch; the hits that arrived meanwhile stay pending
        entry.inFlight -= n;
        entry.shared = count;
        entry.resetAt = Math.min(entry.resetAt, resetAt);
      } catch (err) {
        entry.inFlight -= n;
        entry.pending += n;
        this.onError(err);
      }
    }
  }
}

/** The 429 of a SCIM request (modules/scim answers every error as RFC 7644's error message), with Retry-After. */
function sendScimLimited(reply: FastifyReply, resetAt: number): FastifyReply {
  const { headers } = tooManyRequests(resetAt);
  return reply
    .code(429)
    .headers(headers ?? {})
    .header('content-type', 'application/scim+json')
    .send(
      JSON.stringify({
        schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
        status: '429',
        detail: 'Too many requests of this SCIM token: try again after Retry-After seconds',
      }),
    );
}

/** Whether the general limit counts a request: the API, SCIM and the OpenID Connect provider. */
export function isLimitedPath(path: string): boolean {
  return isApiPath(path) || isScimPath(path) || path.startsWith('/connect/') || path.startsWith('/.well-known/');
}

/**
 * The general request limit (docs/security.md, "Limits and thresholds"), per credential as
 * http/credentials.ts finds it: a signed-in request counts against its session, a service
 * account's (http/bearer.ts) against its account, a directory's (SCIM) against its token, an
 * anonymous one (or one with a refused token) against its client address, so that many
 * people behind one address (an office) each have their own allowance. Applies to /api, /scim, /connect and
 * /.well-known, by the path as the router understands it (however it is percent-encoded); runs
 * as a hook of every request, so the provider's endpoints, which are answered before routing
 * completes (oidc/index.ts), are counted too. /health is not limited.
 */
export function registerRateLimit(
  app: FastifyInstance,
  options: {
    counters: CounterStore;
    credentials: Credentials;
    perAddress: number;
    perSession: number;
    perServiceAccount: number;
    perDirectory: number;
    windowSeconds: number;
  },
): void {
  const shared = new BatchedSharedStore(options.counters, options.windowSeconds * 1000, (err) =>
    app.log.warn({ err }, 'rate limit counters unavailable'),
  );
  const limitOf = (request: FastifyRequest, who: Credential | null): [string, number] => {
    switch (who?.kind) {
      case undefined:
        return [`ip:${request.ip}`, options.perAddress];
      case 'person':
        return [`session:${who.user.sessionIdHash}`, options.perSession];
      case 'service_account':
        return [`service-account:${who.account.id}`, options.perServiceAccount];
      case 'directory':
        return [`directory:${who.directory.id}`, options.perDirectory];
      case 'setup_link':
        return [`setup-link:${who.link.id}`, options.perSession];
    }
  };
  const count = (request: FastifyRequest, reply: FastifyReply, who: Credential | null, done: HookHandlerDoneFunction) => {
    const [key, max] = limitOf(request, who);
    const { count, resetAt } = shared.incr(key);
    if (count <= max) done();
    else if (isScimPath(routerPath(request))) void sendScimLimited(reply, resetAt);
    else void sendProblem(request, reply, tooManyRequests(resetAt));
  };
  // a callback hook: a session this instance holds is counted without waiting for anything
  app.addHook('onRequest', (request, reply, done) => {
    if (!isLimitedPath(routerPath(request))) {
      done();
      return;
    }
    const known = options.credentials.known(request);
    if (known !== undefined) count(request, reply, known, done);
    else options.credentials.find(request).then((who) => count(request, reply, who, done), done);
  });
}
