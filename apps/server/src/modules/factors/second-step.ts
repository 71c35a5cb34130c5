import type { LoginConsentResponse } from '@partner-portal/contracts';
import type { Database } from '../../db/client.js';
import type { SqlStatement } from '../../db/sql.js';
import { AppError } from '../../http/problem.js';
import { hashSecret, newSecret } from '../../http/session.js';
import type { Oidc } from '../../oidc/runtime.js';
import { asksMultiFactor } from '../../oidc/multi-factor.js';
import type { FactorChecks } from './checks.js';
import * as q from './queries.js';

/**
 * The second step of the sign-in (docs/second-factors.md): after a correct password, an account
 * with a second factor (or one that must set one up) gets no session yet but a short-lived pending
 * sign-in, found again by the second-step cookie; a code, a passkey or a new factor completes it.
 */

/** How long a sign-in waits for its second step (the row, and the cookie's maxAge). */
export const SECOND_STEP_TTL_SECONDS = 600;

/** RFC 8176 authentication method references. */
export const AMR = { password: 'pwd', otp: 'otp', multiFactor: 'mfa', federated: 'fed', hardwareKey: 'hwk', softwareKey: 'swk' } as const;
/** What a password and a code of the app or a recovery code prove. */
export const PASSWORD_AND_CODE = [AMR.password, AMR.otp, AMR.multiFactor];

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

/** A sign-in waiting for its second step: the hash of its cookie's value, and its row. */
export interface PendingSecondStep {
  idHash: string;
  step: q.SecondStepRow;
}

/** Who sets up a factor: the signed-in user, or a sign-in that must enrol before its session starts. */
export type Enrollee =
  | { kind: 'session'; userId: string; email: string; sessionIdHash: string }
  | ({ kind: 'second-step'; userId: string; email: string } & PendingSecondStep);

export class SecondStep {
  constructor(private readonly deps: { db: Database; oidc: Oidc; checks: FactorChecks }) {}

  /**
   * Whether the account has a second factor, and whether a policy requires one: one statement.
   * For no account (null) the same statement finds nothing (a login asks before it knows the
   * password, and must take as long for an unknown address).
   */
  state(userId: string | null): Promise<q.SecondFactorState> {
    return q.secondFactorState(this.deps.db, userId);
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
    login: {
      remember: boolean;
      returnTo: string | null;
      alongside?: readonly SqlStatement[];
      /** the first step: a password ('pwd', the default) or a sign-in at an identity provider ('fed', identity/external-login.ts) */
      firstFactor?: typeof AMR.password | typeof AMR.federated;
    },
    /** the account's state, when the caller read it already (the password step's statement, identity/queries.ts) */
    known?: q.SecondFactorState,
  ): Promise<{ response: LoginConsentResponse; secondStepCookie: string } | null> {
    // what the user has and whether a policy requires it, in one statement
    const state = known ?? (await this.state(userId));
    const hasFactor = state.has_factor;
    const mustEnrol = !hasFactor && (state.required || (await this.clientAsksMultiFactor(login.returnTo)));
    if (!hasFactor && !mustEnrol) return null;
    const secret = newSecret();
    await q.createSecondStep(
      this.deps.db,
      hashSecret(secret),
      {
        user_id: userId,
        persistent: login.remember,
        return_to: login.returnTo,
        must_enrol: mustEnrol,
        first_factor: login.firstFactor ?? AMR.password,
      },
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
  async pending(secondStepCookie: string | undefined): Promise<PendingSecondStep | null> {
    if (!secondStepCookie || secondStepCookie.length > 100) return null;
    const idHash = hashSecret(secondStepCookie);
    const step = await q.findSecondStep(this.deps.db, idHash);
    return step ? { idHash, step } : null;
  }

  /** The sign-in that must set up a factor before its session starts, by the second-step cookie, if any. */
  async enrollingSignIn(secondStepCookie: string | undefined): Promise<Enrollee | null> {
    const pending = await this.pending(secondStepCookie);
    if (!pending?.step.must_enrol) return null;
    const person = await q.findPerson(this.deps.db, pending.step.user_id);
    return person ? { kind: 'second-step', userId: pending.step.user_id, email: person.email, ...pending } : null;
  }

  /** POST /api/identity/second-factor: a code of the app or a recovery code completes the sign-in. */
  async complete(input: { secondStepCookie: string | undefined; ip: string; code: string }): Promise<ProvenSession> {
    const pending = await this.pending(input.secondStepCookie);
    if (!pending || pending.step.must_enrol) throw new AppError('second_step_expired');
    await this.deps.checks.verifyCode(pending.step.user_id, input.code, input.ip);
    return this.finish(pending, PASSWORD_AND_CODE);
  }

  /**
   * Complete a pending sign-in: it ends, and its session (proven by amr) is to start. After a
   * sign-in at an identity provider the session says 'fed' where a password's would say 'pwd'.
   */
  async finish({ idHash, step }: PendingSecondStep, amr: string[]): Promise<ProvenSession> {
    if (!(await q.deleteSecondStep(this.deps.db, idHash))) throw new AppError('second_step_expired');
    const proven = step.first_factor === AMR.federated ? [AMR.federated, ...amr.filter((m) => m !== AMR.password)] : amr;
    return { userId: step.user_id, persistent: step.persistent, amr: proven, returnTo: step.return_to, clearSecondStepCookie: true };
  }

  /** Keep what a session just started (by its cookie's secret) proves: amr (a passkey alone, or a completed second step). */
  async recordSessionAuthentication(sessionSecret: string, amr: string[]): Promise<void> {
    await q.setSessionAuthentication(this.deps.db, hashSecret(sessionSecret), amr);
  }

  /** Whether the authorization request behind a login address asks for multi-factor (acr_values). */
  private async clientAsksMultiFactor(returnTo: string | null): Promise<boolean> {
    const uid = this.deps.oidc.interactionUid(returnTo);
    if (!uid) return false;
    const interaction = await this.deps.oidc.provider().Interaction.find(uid);
    return interaction ? asksMultiFactor(interaction.params) : false;
  }
}
