import type { Config } from '../../config.js';
import type { SqlStatement } from '../../db/sql.js';
import { Guess, type CounterStore, type GuessLimit } from '../../http/rate-limit.js';
import { hashSecret, newSecret } from '../../http/session.js';
import type { Database } from '../../db/client.js';
import * as q from './queries.js';

/** The device cookie: sent only to the password step of the login. */
export const DEVICE_COOKIE = 'pp_device';
const DEVICE_COOKIE_PATH = '/api/identity/login';

/**
 * Throttling of password guessing (docs/security.md, "Limits and thresholds"). Only failed
 * password checks count; the e-mail step and successful logins never do.
 *
 * - A browser in which the account signed in with its password before carries a device cookie
 *   (random, 256 bits; only its hash is kept, per account, in device_cookies). From such a
 *   browser only that browser's own failures count (LOGIN_RATE_LIMIT_PER_DEVICE): guesses from
 *   elsewhere cannot lock the owner out.
 * - Any other browser is limited per account (LOGIN_RATE_LIMIT_PER_ACCOUNT) and per client
 *   address (LOGIN_RATE_LIMIT_PER_IP) over LOGIN_RATE_LIMIT_WINDOW_SECONDS; past a limit even the
 *   right password is refused with 429 until the window ends.
 * - Every password check is a guess under the one counting rule (http/rate-limit.ts Guess): one
 *   guess is taken from each limit that applies, atomically, before the password is checked, so
 *   that concurrent attempts cannot together pass a limit. Past a limit: 429, the guesses are
 *   given back, and the password is not checked. A wrong password keeps its guesses; the right one
 *   gives them back.
 * - A success clears the failures of that browser's device cookie and gives (or renews) the
 *   cookie; it does not clear the account's count, which guesses from elsewhere made.
 * Account keys are the e-mail address as PostgreSQL's lower() makes it (q.emailLimitKey), the
 * same comparison the account lookup uses.
 *
 * The database is asked as little as possible (docs/performance.md, "Password logins"): before
 * the hash one statement finds the account, decides which limits apply and, when the counters are
 * in PostgreSQL, takes the guesses too (q.passwordStep); with the counters in Redis the guesses
 * are taken there after it. After a right password the counters' write is one statement, and the
 * device row is written in the caller's statement (the session's, or the second step's).
 */
/** What the throttle depends on: the counters, the database and the limits. */
export interface ThrottleDeps {
  config: Config;
  db: Database;
  counters: CounterStore;
}

export class LoginThrottle {
  private constructor(
    private readonly services: ThrottleDeps,
    private readonly guess: Guess,
    private readonly deviceSecret: string | null,
    private readonly deviceKey: string | null,
    /** the device's row is written at a success: a new browser, or one whose row is past half its life */
    private readonly renewDevice: boolean,
  ) {}

  /**
   * Before the password is checked: the password step's statement (q.passwordStep: the account,
   * its second-factor state, the limits of this browser), and one guess taken from each limit
   * (in that statement when the counters are in PostgreSQL). 429 (and the guesses given back)
   * when one is used up.
   */
  static async takeGuess(
    services: ThrottleDeps,
    browser: { ip: string; deviceCookie: string | undefined },
    email: string,
  ): Promise<{ throttle: LoginThrottle; step: q.PasswordStepRow }> {
    const { config, db, counters } = services;
    const cookie = browser.deviceCookie;
    const deviceSecret = cookie && /^[\w-]{43}$/.test(cookie) ? cookie : null;
    const deviceHash = deviceSecret ? hashSecret(deviceSecret) : null;
    const windowMs = config.LOGIN_RATE_LIMIT_WINDOW_SECONDS * 1000;
    const keys = {
      device: deviceHash ? `login-failures:device:${deviceHash}` : null,
      accountPrefix: 'login-failures:account:',
      ip: `login-failures:ip:${browser.ip}`,
    };
    const step = await q.passwordStep(db, {
      email,
      deviceHash,
      keys,
      guessWindowMs: counters.kind === 'postgres' ? windowMs : null,
    });
    const max = (key: string) =>
      key === keys.device
        ? config.LOGIN_RATE_LIMIT_PER_DEVICE
        : key === keys.ip
          ? config.LOGIN_RATE_LIMIT_PER_IP
          : config.LOGIN_RATE_LIMIT_PER_ACCOUNT;
    const limits: GuessLimit[] = step.limitKeys.map((key) => ({ key, max: max(key) }));
    const guess = await Guess.take(counters, limits, windowMs, step.guesses);
    const known = step.deviceUntil !== null;
    const throttle = new LoginThrottle(
      services,
      guess,
      deviceSecret,
      known ? keys.device : null,
      // a known browser's row is renewed once past half its life
      !known || step.deviceUntil!.getTime() - Date.now() < (config.DEVICE_COOKIE_TTL_SECONDS * 1000) / 2,
    );
    return { throttle, step };
  }

  /** Give back the guesses taken (when the login cannot go on: login.ts). */
  async giveBack(): Promise<void> {
    await this.guess.giveBack();
  }

  /**
   * The right password: its guesses are given back, this browser's failures cleared, and it is
   * known from now on (its row written for a new browser, renewed once past half its life). The
   * counters' write is one statement here; the device row is handed to `signIn`, the caller's one
   * write of the sign-in, to run in its own statement (`alongside`, db/sql.ts withAlongside),
   * side by side with the counters'. The counters stay a statement of their own on purpose: it
   * writes only the unlogged rate_limits (migration 0052), so it commits without waiting for the
   * disk, and the row of a busy key (one office's address, which every login from there takes and
   * gives back) stays locked for microseconds; inside the session's statement it would stay locked
   * until that statement's commit had reached the disk. Returns the device cookie's value, for the
   * caller to set (deviceCookieOptions), and what signIn returned.
   */
  async succeeded<R>(
    userId: string,
    signIn: (alongside: readonly SqlStatement[]) => Promise<R>,
  ): Promise<{ deviceCookie: string; signedIn: R }> {
    const { config, counters } = this.services;
    const secret = this.deviceSecret ?? newSecret();
    const deviceRow = this.renewDevice ? [q.rememberDevice(hashSecret(secret), userId, config.DEVICE_COOKIE_TTL_SECONDS)] : [];
    // a known browser's limit is its own key only: cleared; any other browser's guesses: given back
    const [, signedIn] = await Promise.all([this.deviceKey ? counters.reset(this.deviceKey) : this.giveBack(), signIn(deviceRow)]);
    return { deviceCookie: secret, signedIn };
  }
}

/** How the device cookie is set: only the password step of the login gets it. */
export function deviceCookieOptions(config: Pick<Config, 'isHttps' | 'DEVICE_COOKIE_TTL_SECONDS'>) {
  return {
    path: DEVICE_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: config.isHttps,
    maxAge: config.DEVICE_COOKIE_TTL_SECONDS,
  };
}

/** The limits of a flow counted per account and per client address: how many requests each may make in a window. */
export interface AccountAndIpLimits {
  perAccount: number;
  perIp: number;
  windowSeconds: number;
}

/**
 * Forgot and reset password (e-mails sent, reset links tried): limited per account and per
 * address, by the one counting rule of guesses (http/rate-limit.ts Guess). Every request counts,
 * answered or not: its guess is never given back (docs/security.md, "Limits and thresholds").
 * Other flows that send e-mails to an address anybody may type (access requests) are counted the
 * same way under limits of their own (`limits`; by default the login's).
 */
export async function throttleAccountAndIp(
  services: ThrottleDeps,
  flow: string,
  account: string,
  ip: string,
  limits: AccountAndIpLimits = {
    perAccount: services.config.LOGIN_RATE_LIMIT_PER_ACCOUNT,
    perIp: services.config.LOGIN_RATE_LIMIT_PER_IP,
    windowSeconds: services.config.LOGIN_RATE_LIMIT_WINDOW_SECONDS,
  },
): Promise<void> {
  const key = await q.emailLimitKey(services.db, account);
  await Guess.take(
    services.counters,
    [
      { key: `${flow}:ip:${ip}`, max: limits.perIp },
      { key: `${flow}:account:${key}`, max: limits.perAccount },
    ],
    limits.windowSeconds * 1000,
  );
}
