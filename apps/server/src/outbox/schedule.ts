/**
 * When an outbox row that could not be delivered is tried again: the one rule every kind follows
 * (mail, webhooks, back-channel logout; docs/decisions/024-mail-outbox.md). The next attempt after
 * `attempts` failed ones comes `multiples[attempts - 1] × base` seconds later, at most `capSeconds`,
 * stretched by a random 0 to `jitter` (so that rows that waited for the same receiver do not all
 * come back at once). After the last multiple the row has failed: a kind makes `multiples.length + 1`
 * attempts. Each kind names its schedule beside its deliverer (mail/schedule.ts, webhooks/schedule.ts).
 */
export interface RetrySchedule {
  /** the delay before each retry, in bases: the first retry after multiples[0] × base */
  readonly multiples: readonly number[];
  readonly capSeconds?: number;
  /** 0.2: each delay stretched by a random 0–20 % */
  readonly jitter?: number;
}

/** Attempts before a row has failed: the first and one per retry. */
export function maxAttempts(schedule: RetrySchedule): number {
  return schedule.multiples.length + 1;
}

/** Seconds until the next attempt after `attempts` failed ones, or null when they were the last. */
export function retryDelaySeconds(
  schedule: RetrySchedule,
  attempts: number,
  baseSeconds: number,
  random: () => number = Math.random,
): number | null {
  const multiple = attempts >= 1 ? schedule.multiples[attempts - 1] : undefined;
  if (multiple === undefined) return null;
  const delay = Math.min(multiple * baseSeconds, schedule.capSeconds ?? Infinity);
  return delay * (1 + (schedule.jitter ?? 0) * random());
}

/**
 * The schedule of an HTTP receiver (webhooks: modules/webhooks/schedule.ts; back-channel logouts:
 * oidc/backchannel.ts): at the default base of 30 s the eight attempts are spread over about a
 * day: at once, then after 30 s, 2 min, 10 min, 30 min, 2 h, 6 h and 15 h.
 */
export const HTTP_RECEIVER_SCHEDULE: RetrySchedule = { multiples: [1, 4, 20, 60, 240, 720, 1800] };
