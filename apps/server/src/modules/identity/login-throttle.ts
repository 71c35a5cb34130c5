import type { Config } from '../../config.js';
import { throttle, tooManyRequests } from '../../http/rate-limit.js';
import { hashSecret, newSecret } from '../../http/session.js';
import type { Services } from '../../services.js';
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
 * - A success clears the failures of that browser's device cookie and gives (or renews) the
 *   cookie; it does not clear the account's count, which guesses from elsewhere made.
 * Account keys are the e-mail address as PostgreSQL's lower() makes it (q.emailLimitKey), the
 * same comparison the account lookup uses.
 */
export class LoginThrottle {
  private constructor(
    private readonly services: Services,
    private readonly keys: { key: string; max: number }[],
    private readonly deviceSecret: string | null,
    private readonly deviceKey: string | null,
    /** the device's row is written at a success: a new browser, or one whose row is past half its life */
    private readonly renewDevice: boolean,
  ) {}

  /** The limits that apply to this password check of this browser (its address and its device cookie). */
  static async for(
    services: Services,
    browser: { ip: string; deviceCookie: string | undefined },
    email: string,
    userId: string | undefined,
    /** the account's key when the caller has it already (q.findUserForLogin) */
    accountKey?: string,
  ): Promise<LoginThrottle> {
    const { config, db } = services;
    const cookie = browser.deviceCookie;
    const deviceSecret = cookie && /^[\w-]{43}$/.test(cookie) ? cookie : null;
    const knownUntil = deviceSecret && userId ? await q.knownDeviceUntil(db, hashSecret(deviceSecret), userId) : null;
    if (knownUntil && deviceSecret) {
      const deviceKey = `login-failures:device:${hashSecret(deviceSecret)}`;
      const renew = knownUntil.getTime() - Date.now() < (config.DEVICE_COOKIE_TTL_SECONDS * 1000) / 2;
      return new LoginThrottle(services, [{ key: deviceKey, max: config.LOGIN_RATE_LIMIT_PER_DEVICE }], deviceSecret, deviceKey, renew);
    }
    const account = accountKey ?? (await q.emailLimitKey(db, email));
    return new LoginThrottle(
      services,
      [
        { key: `login-failures:account:${account}`, max: config.LOGIN_RATE_LIMIT_PER_ACCOUNT },
        { key: `login-failures:ip:${browser.ip}`, max: config.LOGIN_RATE_LIMIT_PER_IP },
      ],
      deviceSecret,
      null,
      true,
    );
  }

  private get windowMs(): number {
    return this.services.config.LOGIN_RATE_LIMIT_WINDOW_SECONDS * 1000;
  }

  /**
   * Before the password is checked: take one guess from each limit, atomically, so that
   * concurrent attempts cannot together pass a limit; 429 (and nothing taken) when one is used
   * up. A wrong password keeps the guesses taken; the right one gives them back (succeeded).
   */
  async takeGuess(): Promise<void> {
    const keys = this.keys.map((k) => k.key);
    const counts = await this.services.counters.addAll(keys, 1, this.windowMs);
    const over = counts.filter((c, i) => c.count > this.keys[i]!.max);
    if (over.length) {
      await this.giveBack(keys);
      throw tooManyRequests(Math.max(...over.map((c) => c.resetAt)));
    }
  }

  private async giveBack(keys: string[]): Promise<void> {
    if (keys.length) await this.services.counters.addAll(keys, -1, this.windowMs);
  }

  /**
   * The right password: its guesses are given back, this browser's failures cleared, and it is
   * known from now on (its row written for a new browser, renewed once past half its life). Returns the device cookie's value, for the caller to set (deviceCookieOptions).
   */
  async succeeded(userId: string): Promise<string> {
    const { config, db, counters } = this.services;
    const secret = this.deviceSecret ?? newSecret();
    // three independent writes, side by side
    await Promise.all([
      this.giveBack(this.keys.map((k) => k.key).filter((k) => k !== this.deviceKey)),
      this.deviceKey ? counters.reset(this.deviceKey) : undefined,
      this.renewDevice ? q.rememberDevice(db, hashSecret(secret), userId, config.DEVICE_COOKIE_TTL_SECONDS) : undefined,
    ]);
    return secret;
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

/** Forgot and reset password (e-mails sent, reset links tried): limited per account and per address. */
export async function throttleAccountAndIp(services: Services, flow: string, account: string, ip: string): Promise<void> {
  const { LOGIN_RATE_LIMIT_PER_ACCOUNT, LOGIN_RATE_LIMIT_PER_IP, LOGIN_RATE_LIMIT_WINDOW_SECONDS } = services.config;
  await throttle(services.counters, `${flow}:ip:${ip}`, LOGIN_RATE_LIMIT_PER_IP, LOGIN_RATE_LIMIT_WINDOW_SECONDS);
  const key = await q.emailLimitKey(services.db, account);
  await throttle(services.counters, `${flow}:account:${key}`, LOGIN_RATE_LIMIT_PER_ACCOUNT, LOGIN_RATE_LIMIT_WINDOW_SECONDS);
}
