import { maxAttempts, retryDelaySeconds, type RetrySchedule } from '../../outbox/schedule.js';

/**
 * When an e-mail the mail server did not take is tried again (README.md, "E-mail"), by the
 * outbox's one retry rule (outbox/schedule.ts): the first retry after MAIL_RETRY_BASE_SECONDS (15 s
 * by default, at most 25: within the 30 s the operating contract promises, jitter included), each
 * next one twice as late, at most MAX_DELAY_SECONDS (4 hours) apart, every delay stretched by a
 * random 0–20 %. After MAX_ATTEMPTS the e-mail has failed: at the default base the attempts span
 * about 40 hours, and at any base at least a day (the delays reach the cap sooner at a larger base).
 */
export const MAX_DELAY_SECONDS = 4 * 3600;
export const MAIL_SCHEDULE: RetrySchedule = {
  multiples: Array.from({ length: 19 }, (_, i) => 2 ** i),
  capSeconds: MAX_DELAY_SECONDS,
  jitter: 0.2,
};
export const MAX_ATTEMPTS = maxAttempts(MAIL_SCHEDULE);

/** Seconds until the next attempt after `attempts` failed ones, or null when they were the last. */
export function mailRetryDelaySeconds(attempts: number, baseSeconds: number, random: () => number = Math.random): number | null {
  return retryDelaySeconds(MAIL_SCHEDULE, attempts, baseSeconds, random);
}
