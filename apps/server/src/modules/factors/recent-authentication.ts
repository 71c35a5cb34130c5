import type { Database } from '../../db/client.js';
import { AppError } from '../../http/problem.js';
import type { SessionUser } from '../../http/session.js';
import { verifyPassword } from '../../password-hashing.js';
import type { FactorChecks } from './checks.js';
import * as q from './queries.js';
import { PASSWORD_AND_CODE } from './second-step.js';

/** Changing how one signs in needs a password or second factor checked this recently (seconds). */
export const RECENT_AUTHENTICATION_SECONDS = 300;

/**
 * A session's recent authentication (docs/second-factors.md): changing the factors needs a
 * password or a code checked within the last five minutes, at the sign-in or again
 * (confirm-identity).
 */
export class RecentAuthentication {
  constructor(private readonly deps: { db: Database; checks: FactorChecks }) {}

  /** 403 recent_authentication_required unless the session checked a password or factor lately. */
  async assert(sessionIdHash: string): Promise<void> {
    if (!(await q.authenticatedWithin(this.deps.db, sessionIdHash, RECENT_AUTHENTICATION_SECONDS)))
      throw new AppError('recent_authentication_required');
  }

  /**
   * POST /api/factors/confirm-identity: the password, or a code of the app or a recovery code,
   * checked again; for the next five minutes the session may change how the user signs in.
   * Each is a guess, limited like codes (FactorChecks.checkGuess).
   */
  async confirmIdentity(
    user: SessionUser,
    ip: string,
    input: { password?: string | null | undefined; code?: string | null | undefined },
  ): Promise<void> {
    const { db, checks } = this.deps;
    if (input.code) {
      await checks.verifyCode(user.id, input.code, ip);
      await q.setSessionAuthentication(db, user.sessionIdHash, PASSWORD_AND_CODE);
      return;
    }
    const password = input.password;
    if (!password) throw AppError.validation({ password: 'fill_all_required_fields' });
    const right = await checks.checkGuess(user.id, ip, async () => {
      const hash = await q.findPasswordHash(db, user.id);
      return !!hash && (await verifyPassword(hash, password));
    });
    if (!right) throw new AppError('current_password_incorrect');
    await q.markAuthenticated(db, user.sessionIdHash);
  }
}
