import {
  ACR_MULTI_FACTOR,
  ACR_SINGLE_FACTOR,
  type FactorsResponse,
  type LoginConsentResponse,
  type RecoveryCodesResponse,
  type TotpEnrolmentResponse,
} from '@partner-portal/contracts';
import type { SqlStatement } from '../../db/sql.js';
import { AppError } from '../../http/problem.js';
import { Guess, type GuessLimit } from '../../http/rate-limit.js';
import { hashSecret, newSecret, type Actor, type SessionUser } from '../../http/session.js';
import type { Oidc } from '../../oidc/runtime.js';
import { asksMultiFactor, type Authentication } from '../../oidc/multi-factor.js';
import { seal, unseal } from '../../sealed.js';
import type { Services } from '../../services.js';
import { verifyPassword } from '../../password-hashing.js';
import { audit, withRefusalAudit } from '../audit/service.js';
import { memberForChange } from '../members/service.js';
import { securityNoticeEmail, type SecurityNotice } from './notices.js';
import * as passkeyQueries from './passkey-queries.js';
import * as q from './queries.js';
import { hashRecoveryCode, isTotpCode, newRecoveryCodes, newTotpSecret, totpEnrolment, totpStep } from './totp.js';

/**
 * Second factors (docs/second-factors.md): authenticator apps with recovery codes, the second step
 * of the sign-in, and what a session proves (amr, acr) to the OpenID Connect provider.
 */

/** The cookie of a sign-in waiting for its second step (no session exists yet). */
export const SECOND_STEP_COOKIE = 'pp_second_step';
export const SECOND_STEP_TTL_SECONDS = 600;
const SEALING_PURPOSE = 'totp-secrets';
/** The second-step cookie's attributes (the routes set it with maxAge SECOND_STEP_TTL_SECONDS, and clear it). */
export function secondStepCookieOptions(isHttps: boolean) {
  return { path: '/api', httpOnly: true, sameSite: 'lax' as const, secure: isHttps };
}
/** Changing how one signs in needs a password or second factor checked this recently (seconds). */
export const RECENT_AUTHENTICATION_SECONDS = 300;

/** RFC 8176 authentication method references. */
export const AMR = { password: 'pwd', otp: 'otp', multiFactor: 'mfa', federated: 'fed', hardwareKey: 'hwk', softwareKey: 'swk' } as const;
const PASSWORD_AND_CODE = [AMR.password, AMR.otp, AMR.multiFactor];

/**
 * A session the routes start (http/session.ts) for a completed sign-in, proven by amr; then
 * `recordSessionAuthentication` keeps the amr. `clearSecondStepCookie`: the sign-in's second step
 * is done and its cookie goes.
 */
export interface ProvenSession {
  userId: string;
  persistent: boolean;
  amr: string[];
  returnTo: string | null;
  clearSecondStepCookie: boolean;
}

/** Who sets up a factor: the signed-in user, or a sign-in that must enrol before its session starts. */
export type Enrollee =
  | { kind: 'session'; userId: string; email: string; sessionIdHash: string }
  | { kind: 'second-step'; userId: string; email: string; idHash: string; step: q.SecondStepRow };

export class FactorService {
  constructor(
    private readonly services: Services,
    private readonly oidc: Oidc,
  ) {}

  private get db() {
    return this.services.db;
  }

  private get config() {
    return this.services.config;
  }

  // ---- what the user has ------------------------------------------------------------------------

  async hasSecondFactor(userId: string): Promise<boolean> {
    const [totp, passkeys] = await Promise.all([q.findTotp(this.db, userId), passkeyQueries.listPasskeys(this.db, userId)]);
    return totp?.confirmed_at != null || passkeys.length > 0;
  }

  async status(user: SessionUser): Promise<FactorsResponse> {
    const [totp, passkeys, remaining, required] = await Promise.all([
      q.findTotp(this.db, user.id),
      passkeyQueries.listPasskeys(this.db, user.id),
      q.countUnusedRecoveryCodes(this.db, user.id),
      this.requiredByPolicy(user.id),
    ]);
    const confirmedAt = totp?.confirmed_at ? new Date(totp.confirmed_at).toISOString() : null;
    return {
      totp: { enabled: confirmedAt !== null, confirmed_at: confirmedAt },
      passkeys: passkeys.map((p) => ({
        id: p.id,
        name: p.name,
        created_at: new Date(p.created_at).toISOString(),
        last_used_at: p.last_used_at ? new Date(p.last_used_at).toISOString() : null,
      })),
      recovery_codes_remaining: remaining,
      required,
    };
  }

  /** Whether an organization policy requires a second factor of this user. */
  async requiredByPolicy(userId: string): Promise<boolean> {
    return q.userUnderPolicy(this.db, userId);
  }

  // ---- authenticator app ------------------------------------------------------------------------

  /** A new secret with its otpauth URI and QR code; the factor counts only once confirmed. */
  async startTotp(enrollee: Enrollee): Promise<TotpEnrolmentResponse> {
    if (enrollee.kind === 'session') await this.assertRecentAuthentication(enrollee.sessionIdHash);
    const secret = newTotpSecret();
    const sealed = await seal(this.services.secrets.keyEncryption, SEALING_PURPOSE, secret);
    if (!(await q.putPendingTotp(this.db, enrollee.userId, sealed))) throw new AppError('totp_already_enabled');
    return totpEnrolment(secret, enrollee.email);
  }

  /**
   * Confirm the app with a first code. The first factor brings ten recovery codes (shown once, in
   * this answer). A sign-in that had to enrol gets its session here: `session`, for the route to start.
   */
  async confirmTotp(ip: string, enrollee: Enrollee, code: string): Promise<RecoveryCodesResponse & { session: ProvenSession | null }> {
    const codes = newRecoveryCodes();
    const confirmed = await this.checkGuess(enrollee.userId, ip, () =>
      this.db.transaction(async (tx) => {
        const row = await q.findTotp(tx, enrollee.userId, true);
        if (!row) throw new AppError('totp_enrolment_not_started');
        if (row.confirmed_at) throw new AppError('totp_already_enabled');
        const secret = await unseal(this.services.secrets.keyEncryption, SEALING_PURPOSE, row.secret_encrypted);
        const step = totpStep(secret, code);
        if (step === null) return false;
        await q.confirmTotp(tx, enrollee.userId, step);
        await q.replaceRecoveryCodes(tx, enrollee.userId, codes.map(hashRecoveryCode));
        return true;
      }),
    );
    if (!confirmed) this.failedCheck();
    await this.notify(enrollee.userId, 'factor-added');
    if (enrollee.kind === 'session') {
      await q.setSessionAuthentication(this.db, enrollee.sessionIdHash, PASSWORD_AND_CODE);
      return { recovery_codes: codes, session: null };
    }
    return { recovery_codes: codes, session: await this.finishSecondStep(enrollee.idHash, enrollee.step, PASSWORD_AND_CODE) };
  }

  /** Remove the authenticator app (and the recovery codes that came with it). */
  async removeTotp(user: SessionUser): Promise<void> {
    await this.assertRecentAuthentication(user.sessionIdHash);
    await this.db.transaction(async (tx) => {
      if (!(await q.deleteTotp(tx, user.id))) throw new AppError('not_found');
      // the recovery codes go with the last factor
      if ((await passkeyQueries.listPasskeys(tx, user.id)).length === 0) await q.deleteRecoveryCodes(tx, user.id);
    });
    await this.notify(user.id, 'factor-removed');
  }

  /** A new set of recovery codes; the old set stops working. Needs a second factor. */
  async regenerateRecoveryCodes(user: SessionUser): Promise<RecoveryCodesResponse> {
    await this.assertRecentAuthentication(user.sessionIdHash);
    if (!(await this.hasSecondFactor(user.id))) throw new AppError('second_factor_required');
    const codes = newRecoveryCodes();
    await q.replaceRecoveryCodes(this.db, user.id, codes.map(hashRecoveryCode));
    return { recovery_codes: codes };
  }

  // ---- re-authentication, administration and notices ---------------------------------------------

  /** 403 recent_authentication_required unless the session checked a password or factor lately. */
  async assertRecentAuthentication(sessionIdHash: string): Promise<void> {
    if (!(await q.authenticatedWithin(this.db, sessionIdHash, RECENT_AUTHENTICATION_SECONDS)))
      throw new AppError('recent_authentication_required');
  }

  /**
   * POST /api/factors/confirm-identity: the password, or a code of the app or a recovery code,
   * checked again; for the next five minutes the session may change how the user signs in.
   * Each is a guess, limited like codes (checkGuess).
   */
  async confirmIdentity(
    ip: string,
    user: SessionUser,
    input: { password?: string | null | undefined; code?: string | null | undefined },
  ): Promise<void> {
    if (input.code) {
      await this.verifyCode(user.id, input.code, ip);
      await q.setSessionAuthentication(this.db, user.sessionIdHash, PASSWORD_AND_CODE);
      return;
    }
    const password = input.password;
    if (!password) throw AppError.validation({ password: 'fill_all_required_fields' });
    const right = await this.checkGuess(user.id, ip, async () => {
      const hash = await q.findPasswordHash(this.db, user.id);
      return !!hash && (await verifyPassword(hash, password));
    });
    if (!right) throw new AppError('current_password_incorrect');
    await q.markAuthenticated(this.db, user.sessionIdHash);
  }

  /**
   * DELETE /api/members/{memberId}/second-factors: a userManager removes a member's second
   * factors (a lost phone), with the same authorization as changing the member's rights. Audited;
   * the member is told by e-mail.
   */
  async resetMemberFactors(actor: Actor, memberId: string): Promise<void> {
    const userId = await withRefusalAudit(this.db, actor, () =>
      this.db.transaction(async (tx) => {
        const { row: member, change } = await memberForChange(tx, actor, memberId, (row) => ({
          organizationId: row.organization_id,
          organizationPath: row.organization_path,
          action: 'member.second_factors.reset',
          targetType: 'member',
          targetId: row.id,
          before: { email_address: row.email },
        }));
        const hadTotp = await q.deleteTotp(tx, member.user_id);
        const passkeys = await passkeyQueries.deletePasskeys(tx, member.user_id);
        await q.deleteRecoveryCodes(tx, member.user_id);
        await audit(tx, actor, {
          ...change,
          before: { email_address: member.email, totp: hadTotp, passkeys },
          after: { totp: false, passkeys: 0 },
        });
        return member.user_id;
      }),
    );
    await this.notify(userId, 'factors-reset');
  }

  /** Tell the user by e-mail, in their language, of a change to how they sign in. Never fails the change. */
  async notify(userId: string, notice: SecurityNotice): Promise<void> {
    try {
      const user = await q.findPerson(this.db, userId);
      if (!user) return;
      const message = securityNoticeEmail({
        notice,
        language: user.language_code,
        firstName: user.first_name,
        loginUrl: `${this.config.publicUrl}/login`,
      });
      await this.services.mailer.send({ to: user.email, ...message, kind: `security-notice:${notice}` });
    } catch (err) {
      this.services.log.error({ err, notice }, 'security notice could not be sent');
    }
  }

  // ---- the sign-in ------------------------------------------------------------------------------

  /**
   * Whether the account has a second factor, and whether a policy requires one: one statement.
   * For no account (null) the same statement finds nothing (a login asks before it knows the
   * password, and must take as long for an unknown address).
   */
  secondFactorState(userId: string | null): Promise<q.SecondFactorState> {
    return q.secondFactorState(this.db, userId);
  }

  /**
   * Called after a correct password. An account with a second factor, or one that must have one
   * (the client asks for multi-factor, or a policy requires it), gets a second step: no session
   * yet, a short-lived cookie (`secondStepCookie`, for the route to set), and `next_step` in the
   * answer. Otherwise null: the caller starts the session. `login.alongside`: the caller's other
   * writes of the sign-in (the device row), run in the second step's statement when there is a
   * second step, and not run at all when null is returned (the caller runs them with the session).
   */
  async afterPassword(
    userId: string,
    login: { remember: boolean; returnTo: string | null; alongside?: readonly SqlStatement[] },
    /** the account's state, when the caller read it already (the password step's statement, identity/queries.ts) */
    known?: q.SecondFactorState,
  ): Promise<{ response: LoginConsentResponse; secondStepCookie: string } | null> {
    // what the user has and whether a policy requires it, in one statement
    const state = known ?? (await this.secondFactorState(userId));
    const hasFactor = state.has_factor;
    const mustEnrol = !hasFactor && (state.required || (await this.clientAsksMultiFactor(login.returnTo)));
    if (!hasFactor && !mustEnrol) return null;
    const secret = newSecret();
    await q.createSecondStep(
      this.db,
      hashSecret(secret),
      { user_id: userId, persistent: login.remember, return_to: login.returnTo, must_enrol: mustEnrol },
      SECOND_STEP_TTL_SECONDS,
      login.alongside,
    );
    return {
      response: {
        error: null,
        valid_return_url: null,
        external_login: null,
        next_step: mustEnrol ? 'enrol_second_factor' : 'second_factor',
      },
      secondStepCookie: secret,
    };
  }

  /** The sign-in waiting for its second step, by the value of the browser's second-step cookie, if any. */
  async pendingSecondStep(secondStepCookie: string | undefined): Promise<{ idHash: string; step: q.SecondStepRow } | null> {
    if (!secondStepCookie || secondStepCookie.length > 100) return null;
    const idHash = hashSecret(secondStepCookie);
    const step = await q.findSecondStep(this.db, idHash);
    return step ? { idHash, step } : null;
  }

  /** POST /api/identity/second-factor: a code of the app or a recovery code completes the sign-in. */
  async completeSecondStep(input: { secondStepCookie: string | undefined; ip: string; code: string }): Promise<ProvenSession> {
    const pending = await this.pendingSecondStep(input.secondStepCookie);
    if (!pending || pending.step.must_enrol) throw new AppError('second_step_expired');
    await this.verifyCode(pending.step.user_id, input.code, input.ip);
    return this.finishSecondStep(pending.idHash, pending.step, PASSWORD_AND_CODE);
  }

  /** Complete a pending sign-in: it ends, and its session (proven by amr) is to start. */
  async finishSecondStep(idHash: string, step: q.SecondStepRow, amr: string[]): Promise<ProvenSession> {
    if (!(await q.deleteSecondStep(this.db, idHash))) throw new AppError('second_step_expired');
    return { userId: step.user_id, persistent: step.persistent, amr, returnTo: step.return_to, clearSecondStepCookie: true };
  }

  /** Keep what a session just started (by its cookie's secret) proves: amr (a passkey alone, or a completed second step). */
  async recordSessionAuthentication(sessionSecret: string, amr: string[]): Promise<void> {
    await q.setSessionAuthentication(this.db, hashSecret(sessionSecret), amr);
  }

  /** Whether the authorization request behind a login address asks for multi-factor (acr_values). */
  private async clientAsksMultiFactor(returnTo: string | null): Promise<boolean> {
    const uid = this.oidc.interactionUid(returnTo);
    if (!uid) return false;
    const interaction = await this.oidc.provider().Interaction.find(uid);
    return interaction ? asksMultiFactor(interaction.params) : false;
  }

  // ---- guesses: codes, passkeys and passwords ------------------------------------------------------

  /** The limits of the user's guesses (codes, passkeys, confirm-identity): per account and per client address. */
  private guessLimits(userId: string, ip: string): GuessLimit[] {
    const { LOGIN_RATE_LIMIT_PER_ACCOUNT, LOGIN_RATE_LIMIT_PER_IP } = this.config;
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
      this.services.counters,
      this.guessLimits(userId, ip),
      this.config.LOGIN_RATE_LIMIT_WINDOW_SECONDS * 1000,
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
    this.services.metrics.secondFactors.inc({ outcome: 'succeeded' });
    return result;
  }

  /** A second factor that failed its check (partner_portal_second_factor_checks_total): refused. */
  failedCheck(error: 'second_factor_code_invalid' | 'passkey_not_verified' = 'second_factor_code_invalid'): never {
    this.services.metrics.secondFactors.inc({ outcome: 'failed' });
    throw new AppError(error);
  }

  /** Check a code of the app (each time step once) or a recovery code (each once): a guess (checkGuess). */
  async verifyCode(userId: string, code: string, ip: string): Promise<'totp' | 'recovery_code'> {
    const kind = isTotpCode(code) ? 'totp' : 'recovery_code';
    const right = await this.checkGuess(userId, ip, async () => {
      if (kind === 'recovery_code') return q.useRecoveryCode(this.db, userId, hashRecoveryCode(code));
      const row = await q.findTotp(this.db, userId);
      if (!row?.confirmed_at) return false;
      const secret = await unseal(this.services.secrets.keyEncryption, SEALING_PURPOSE, row.secret_encrypted);
      const step = totpStep(secret, code);
      return step !== null && (await q.useTotpStep(this.db, userId, step));
    });
    if (!right) this.failedCheck();
    return this.checked(kind);
  }
}

/**
 * What a portal session proves, for the provider's login result: amr (RFC 8176), acr, and when the
 * user last authenticated in it (`sessions.authenticated_at`: the sign-in, its second step, or a
 * password or code checked again; docs/second-factors.md). A session without recorded methods was
 * started by a password (or an external login) alone. Null when the session has ended meanwhile.
 */
export async function sessionAuthentication(services: Services, user: SessionUser): Promise<Authentication | null> {
  const row = await q.findSessionAuthentication(services.db, user.sessionIdHash);
  if (!row) return null;
  const amr = row.amr.length ? row.amr : [user.externalIdentityProvider ? AMR.federated : AMR.password];
  return { amr, acr: amr.includes(AMR.multiFactor) ? ACR_MULTI_FACTOR : ACR_SINGLE_FACTOR, authenticatedAt: row.authenticated_at_ms };
}
