/**
 * When an e-mail the mail server did not take is tried again (README.md, "E-mail"): the
 * first retry after MAIL_RETRY_BASE_SECONDS (15 s by default, at most 25: within the 30 s the
 * operating contract promises, jitter included), each next one twice as late, at most
 * MAX_DELAY_SECONDS (4 hours) apart. Every delay is stretched by a random 0–20 % so that the
 * e-mails that waited for a mail server coming back do not all arrive at once. After MAX_ATTEMPTS
 * the e-mail has failed: at the default base the attempts span about 40 hours, and at any base at
 * least a day (the delays reach the cap sooner at a larger base).
 */
export const MAX_ATTEMPTS = 20;
export const MAX_DELAY_SECONDS = 4 * 3600;
const JITTER = 0.2;

/** Seconds until the next attempt after `attempts` failed ones, or null when they were the last. */
export function mailRetryDelaySeconds(attempts: number, baseSeconds: number, random: () => number = Math.random): number | null {
  if (attempts < 1 || attempts >= MAX_ATTEMPTS) return null;
  const delay = Math.min(baseSeconds * 2 ** (attempts - 1), MAX_DELAY_SECONDS);
  return delay * (1 + JITTER * random());
}
