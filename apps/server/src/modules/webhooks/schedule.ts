import { HTTP_RECEIVER_SCHEDULE, maxAttempts, retryDelaySeconds as outboxRetryDelay, type RetrySchedule } from '../../outbox/schedule.js';

/**
 * When a failed delivery is tried again (docs/integrations.md, "Webhooks"), by the outbox's one
 * retry rule (outbox/schedule.ts): the first retry after WEBHOOK_RETRY_BASE_SECONDS, each later one
 * after a growing multiple of it. At the default base (30 s) the eight attempts are spread over
 * about a day: at once, then after 30 s, 2 min, 10 min, 30 min, 2 h, 6 h and 15 h (23.7 hours from
 * the first to the last). After the last the delivery has failed; a manager may still send it
 * again (POST …/deliveries/{id}/retry). Back-channel logouts follow the same schedule
 * (outbox/schedule.ts, HTTP_RECEIVER_SCHEDULE).
 */
export const WEBHOOK_SCHEDULE: RetrySchedule = HTTP_RECEIVER_SCHEDULE;

/** Attempts before a delivery has failed: the first and one per retry. */
export const MAX_ATTEMPTS = maxAttempts(WEBHOOK_SCHEDULE);

/**
 * Seconds until the next attempt after `attempts` attempts have failed, or null when they were the
 * last. A redelivery asked for after the last attempt is one attempt more (null again).
 */
export function retryDelaySeconds(attempts: number, baseSeconds: number): number | null {
  return outboxRetryDelay(WEBHOOK_SCHEDULE, attempts, baseSeconds);
}
