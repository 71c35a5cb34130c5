import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { Metrics } from '../../http/metrics.js';
import { AppError } from '../../http/problem.js';
import { Guess, type CounterStore, type GuessLimit } from '../../http/rate-limit.js';
import * as q from './queries.js';
import { hashRecoveryCode, isTotpCode, totpStep, unsealTotpSecret } from './totp.js';

/**
 * The checks of a user's guesses (docs/second-factors.md): codes of the authenticator app, recovery
 * codes, passkey assertions and passwords checked again, each limited by the one counting rule of
 * guesses, and counted in partner_portal_second_factor_checks_total.
 */
export class FactorChecks {
  constructor(
    private readonly deps: {
      db: Database;
      config: Config;
      counters: CounterStore;
      metrics: Metrics;
      secrets: { keyEncryption: string };
    },
  ) {}

  /** The limits of the user's guesses (codes, passkeys, confirm-identity): per account and per client address. */
  private guessLimits(userId: string, ip: string): GuessLimit[] {
    const { LOGIN_RATE_LIMIT_PER_ACCOUNT, LOGIN_RATE_LIMIT_PER_IP } = this.deps.config;
    return [
      { key: `second-factor:account:${userId}`, max: LOGIN_RATE_LIMIT_PER_ACCOUNT },
      { key: `second-factor:ip:${ip}`, max: LOGIN_RATE_LIMIT_PER_IP },
    ];
  }

  /**
   * Check a guess of the user's — a code, a passkey, the password — by the one counting rule of
   * guesses (http/rate-limit.ts Guess): the guess is taken before `check` runs (past a limit: 429,
   * unchecked); `check` answers false for a wrong answer, which keeps the guess, and anything else
   * for a right one, which gives it back. A check that throws (nothing to check against: no
   * enrolment started) gives it back too.
   */
  async checkGuess<T>(userId: string, ip: string, check: () => Promise<T | false>): Promise<T | false> {
    const guess = await Guess.take(
      this.deps.counters,
      this.guessLimits(userId, ip),
      this.deps.config.LOGIN_RATE_LIMIT_WINDOW_SECONDS * 1000,
    );
    let answer: T | false;
    try {
      answer = await check();
    } catch (err) {
      await guess.giveBack();
      throw err;
    }
    if (answer !== false) await guess.giveBack();
    return answer;
  }

  /** A second factor that passed its check (partner_portal_second_factor_checks_total). */
  checked<T>(result: T): T {
    this.deps.metrics.secondFactors.inc({ outcome: 'succeeded' });
    return result;
  }

  /** A second factor that failed its check (partner_portal_second_factor_checks_total): refused. */
  failedCheck(error: 'second_factor_code_invalid' | 'passkey_not_verified' = 'second_factor_code_invalid'): never {
    this.deps.metrics.secondFactors.inc({ outcome: 'failed' });
    throw new AppError(error);
  }

  /** Check a code of the app (each time step once) or a recovery code (each once): a guess (checkGuess). */
  async verifyCode(userId: string, code: string, ip: string): Promise<'totp' | 'recovery_code'> {
    const { db } = this.deps;
    const kind = isTotpCode(code) ? 'totp' : 'recovery_code';
    const right = await this.checkGuess(userId, ip, async () => {
      if (kind === 'recovery_code') return q.useRecoveryCode(db, userId, hashRecoveryCode(code));
      const row = await q.findTotp(db, userId);
      if (!row?.confirmed_at) return false;
      const step = totpStep(await unsealTotpSecret(this.deps.secrets.keyEncryption, row.secret_encrypted), code);
      return step !== null && (await q.useTotpStep(db, userId, step));
    });
    if (!right) this.failedCheck();
    return this.checked(kind);
  }
}
