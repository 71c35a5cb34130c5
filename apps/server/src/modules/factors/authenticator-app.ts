import type { RecoveryCodesResponse, TotpEnrolmentResponse } from '@partner-portal/contracts';
import type { Database } from '../../db/client.js';
import { AppError } from '../../http/problem.js';
import type { SessionUser } from '../../http/session.js';
import type { SecurityNoticeSender } from '../mail/security-notices.js';
import type { FactorChecks } from './checks.js';
import type { FactorOverview } from './overview.js';
import * as passkeyQueries from './passkey-queries.js';
import * as q from './queries.js';
import type { RecentAuthentication } from './recent-authentication.js';
import { PASSWORD_AND_CODE, type Enrollee, type ProvenSession, type SecondStep } from './second-step.js';
import { hashRecoveryCode, newRecoveryCodes, newTotpSecret, sealTotpSecret, totpEnrolment, totpStep, unsealTotpSecret } from './totp.js';

/**
 * Authenticator apps (TOTP, totp.ts) and the recovery codes that come with the first factor
 * (docs/second-factors.md): set up (also by a sign-in that must enrol), confirmed, removed.
 */
export class AuthenticatorApp {
  constructor(
    private readonly deps: {
      db: Database;
      secrets: { keyEncryption: string };
      checks: FactorChecks;
      recentAuthentication: RecentAuthentication;
      secondStep: SecondStep;
      overview: FactorOverview;
      notify: SecurityNoticeSender;
    },
  ) {}

  /** A new secret with its otpauth URI and QR code; the factor counts only once confirmed. */
  async start(enrollee: Enrollee): Promise<TotpEnrolmentResponse> {
    if (enrollee.kind === 'session') await this.deps.recentAuthentication.assert(enrollee.sessionIdHash);
    const secret = newTotpSecret();
    const sealed = await sealTotpSecret(this.deps.secrets.keyEncryption, secret);
    if (!(await q.putPendingTotp(this.deps.db, enrollee.userId, sealed))) throw new AppError('totp_already_enabled');
    return totpEnrolment(secret, enrollee.email);
  }

  /**
   * Confirm the app with a first code. The first factor brings ten recovery codes (shown once, in
   * this answer). A sign-in that had to enrol gets its session here: `session`, for the route to start.
   */
  async confirm(enrollee: Enrollee, ip: string, code: string): Promise<RecoveryCodesResponse & { session: ProvenSession | null }> {
    const { db, checks } = this.deps;
    const codes = newRecoveryCodes();
    const confirmed = await checks.checkGuess(enrollee.userId, ip, () =>
      db.transaction(async (tx) => {
        const row = await q.findTotp(tx, enrollee.userId, true);
        if (!row) throw new AppError('totp_enrolment_not_started');
        if (row.confirmed_at) throw new AppError('totp_already_enabled');
        const step = totpStep(await unsealTotpSecret(this.deps.secrets.keyEncryption, row.secret_encrypted), code);
        if (step === null) return false;
        await q.confirmTotp(tx, enrollee.userId, step);
        await q.replaceRecoveryCodes(tx, enrollee.userId, codes.map(hashRecoveryCode));
        await this.deps.notify(enrollee.userId, 'factor-added', tx);
        return true;
      }),
    );
    if (!confirmed) checks.failedCheck();
    if (enrollee.kind === 'session') {
      await q.setSessionAuthentication(db, enrollee.sessionIdHash, PASSWORD_AND_CODE);
      return { recovery_codes: codes, session: null };
    }
    return { recovery_codes: codes, session: await this.deps.secondStep.finish(enrollee, PASSWORD_AND_CODE) };
  }

  /** Remove the authenticator app (and the recovery codes that came with it). */
  async remove(user: SessionUser): Promise<void> {
    await this.deps.recentAuthentication.assert(user.sessionIdHash);
    await this.deps.db.transaction(async (tx) => {
      if (!(await q.deleteTotp(tx, user.id))) throw new AppError('not_found');
      // the recovery codes go with the last factor
      if ((await passkeyQueries.listPasskeys(tx, user.id)).length === 0) await q.deleteRecoveryCodes(tx, user.id);
      await this.deps.notify(user.id, 'factor-removed', tx);
    });
  }

  /** A new set of recovery codes; the old set stops working. Needs a second factor. */
  async regenerateRecoveryCodes(user: SessionUser): Promise<RecoveryCodesResponse> {
    await this.deps.recentAuthentication.assert(user.sessionIdHash);
    if (!(await this.deps.overview.hasSecondFactor(user.id))) throw new AppError('second_factor_required');
    const codes = newRecoveryCodes();
    await q.replaceRecoveryCodes(this.deps.db, user.id, codes.map(hashRecoveryCode));
    return { recovery_codes: codes };
  }
}
