import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { displayName, type Passkey } from '@partner-portal/contracts';
import type { Database } from '../../db/client.js';
import { pgErrorCode } from '../../db/errors.js';
import { AppError } from '../../http/problem.js';
import { hashSecret, newSecret, type SessionUser } from '../../http/session.js';
import type { SecurityNoticeSender } from '../mail/security-notices.js';
import type { FactorChecks } from './checks.js';
import * as passkeyQueries from './passkey-queries.js';
import * as q from './queries.js';
import type { RecentAuthentication } from './recent-authentication.js';
import { AMR, type Enrollee, type ProvenSession, type SecondStep } from './second-step.js';
import { hashRecoveryCode, newRecoveryCodes } from './totp.js';

/** @simplewebauthn/server, loaded at the first passkey ceremony (~30 MB the portal does not hold from its start: docs/performance.md, "Memory"). */
const webAuthn = () => import('@simplewebauthn/server');

/**
 * Passkeys (WebAuthn, by @simplewebauthn/server): discoverable credentials with user
 * verification, so a passkey signs in on its own (the browser offers it at the e-mail step) and
 * counts as a second factor by itself. The relying party is the portal's origin (PUBLIC_URL).
 */

/** How long a challenge waits for the browser's answer (the row, and the passkey cookie's maxAge). */
export const CHALLENGE_TTL_SECONDS = 300;
const RP_NAME = 'Partner Portal';

export class Passkeys {
  private readonly origin: string;
  private readonly rpID: string;

  constructor(
    private readonly deps: {
      db: Database;
      config: { publicUrl: string };
      checks: FactorChecks;
      recentAuthentication: RecentAuthentication;
      secondStep: SecondStep;
      notify: SecurityNoticeSender;
    },
  ) {
    const url = new URL(deps.config.publicUrl);
    this.origin = url.origin;
    this.rpID = url.hostname;
  }

  private get db() {
    return this.deps.db;
  }

  /** Where the challenge of a registration is kept: the session, or the sign-in that must enrol. */
  private registrationKey(enrollee: Enrollee): string {
    return enrollee.kind === 'session' ? `register:${enrollee.sessionIdHash}` : `register-step:${enrollee.idHash}`;
  }

  /**
   * POST /api/factors/passkeys/registration-options: creation options for the browser, for the
   * signed-in user (password or code within 5 minutes) or a sign-in that must set up a factor.
   */
  async registrationOptions(enrollee: Enrollee): Promise<Record<string, unknown>> {
    if (enrollee.kind === 'session') await this.deps.recentAuthentication.assert(enrollee.sessionIdHash);
    const person = await q.findPerson(this.db, enrollee.userId);
    const existing = await passkeyQueries.listPasskeys(this.db, enrollee.userId);
    const options = await (
      await webAuthn()
    ).generateRegistrationOptions({
      rpName: RP_NAME,
      rpID: this.rpID,
      userName: enrollee.email,
      userDisplayName: displayName(person?.first_name, person?.last_name, enrollee.email),
      userID: new TextEncoder().encode(enrollee.userId),
      attestationType: 'none',
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: p.transports })),
    });
    await passkeyQueries.putChallenge(this.db, this.registrationKey(enrollee), enrollee.userId, options.challenge, CHALLENGE_TTL_SECONDS);
    return options as unknown as Record<string, unknown>;
  }

  /**
   * POST /api/factors/passkeys: verify the browser's answer and keep the passkey. A sign-in that
   * had to set up a factor gets its session here (password and passkey: multi-factor): `session`,
   * for the route to start.
   */
  async register(
    enrollee: Enrollee,
    input: { name?: string | null | undefined; response: Record<string, unknown> },
  ): Promise<{ passkey: Passkey; recovery_codes: string[] | null; session: ProvenSession | null }> {
    const challenge = await passkeyQueries.takeChallenge(this.db, this.registrationKey(enrollee));
    if (!challenge || challenge.user_id !== enrollee.userId) throw new AppError('passkey_not_verified');
    let verification;
    try {
      verification = await (
        await webAuthn()
      ).verifyRegistrationResponse({
        response: input.response as unknown as RegistrationResponseJSON,
        expectedChallenge: challenge.challenge,
        expectedOrigin: this.origin,
        expectedRPID: this.rpID,
        requireUserVerification: true,
      });
    } catch {
      throw new AppError('passkey_not_verified');
    }
    if (!verification.verified) throw new AppError('passkey_not_verified');
    const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
    const userId = enrollee.userId;
    const existing = await passkeyQueries.listPasskeys(this.db, userId);
    const name = input.name?.trim() || `Passkey ${existing.length + 1}`;
    const codes = (await q.countUnusedRecoveryCodes(this.db, userId)) === 0 ? newRecoveryCodes() : null;
    const id = await this.db
      .transaction(async (tx) => {
        const passkeyId = await passkeyQueries.insertPasskey(tx, {
          userId,
          credentialId: credential.id,
          publicKey: credential.publicKey,
          counter: credential.counter,
          transports: credential.transports ?? [],
          deviceType: credentialDeviceType,
          backedUp: credentialBackedUp,
          name,
        });
        if (codes) await q.replaceRecoveryCodes(tx, userId, codes.map(hashRecoveryCode));
        await this.deps.notify(userId, 'factor-added', tx);
        return passkeyId;
      })
      .catch((err: unknown) => {
        if (pgErrorCode(err) === '23505') throw new AppError('invalid_operation');
        throw err;
      });
    const passkey = { id, name, created_at: new Date().toISOString(), last_used_at: null };
    if (enrollee.kind === 'session') return { passkey, recovery_codes: codes, session: null };
    const amr = [AMR.password, credentialDeviceType === 'multiDevice' ? AMR.softwareKey : AMR.hardwareKey, AMR.multiFactor];
    return { passkey, recovery_codes: codes, session: await this.deps.secondStep.finish(enrollee, amr) };
  }

  async rename(user: SessionUser, passkeyId: string, name: string): Promise<void> {
    if (!(await passkeyQueries.renamePasskey(this.db, user.id, passkeyId, name.trim()))) throw new AppError('not_found');
  }

  async remove(user: SessionUser, passkeyId: string): Promise<void> {
    await this.deps.recentAuthentication.assert(user.sessionIdHash);
    await this.db.transaction(async (tx) => {
      if (!(await passkeyQueries.deletePasskey(tx, user.id, passkeyId))) throw new AppError('not_found');
      const totp = await q.findTotp(tx, user.id);
      // the recovery codes go with the last factor
      if (!totp?.confirmed_at && (await passkeyQueries.listPasskeys(tx, user.id)).length === 0) await q.deleteRecoveryCodes(tx, user.id);
      await this.deps.notify(user.id, 'factor-removed', tx);
    });
  }

  // ---- sign-in ------------------------------------------------------------------------------------

  /**
   * POST /api/identity/passkey-options: request options for a discoverable passkey (no user named),
   * and the passkey cookie's value that finds their challenge again (for the route to set).
   */
  async loginOptions(): Promise<{ options: Record<string, unknown>; passkeyCookie: string }> {
    const options = await (await webAuthn()).generateAuthenticationOptions({ rpID: this.rpID, userVerification: 'required' });
    const secret = newSecret();
    await passkeyQueries.putChallenge(this.db, `login:${hashSecret(secret)}`, null, options.challenge, CHALLENGE_TTL_SECONDS);
    return { options: options as unknown as Record<string, unknown>, passkeyCookie: secret };
  }

  /**
   * POST /api/identity/passkey-login: a passkey signs in on its own (it proves possession and, by
   * user verification, the user), or completes a sign-in waiting for its second step. The values of
   * the passkey cookie (its challenge is used up: the route clears it) and the second-step cookie
   * come in; the session to start comes out.
   */
  async login(
    input: {
      passkeyCookie: string | undefined;
      secondStepCookie: string | undefined;
      ip: string;
      response: Record<string, unknown>;
      remember?: boolean | null | undefined;
    },
    returnTo: () => Promise<string | null>,
  ): Promise<ProvenSession> {
    const secret = input.passkeyCookie;
    const challenge =
      secret && secret.length <= 100 ? await passkeyQueries.takeChallenge(this.db, `login:${hashSecret(secret)}`) : undefined;
    if (!challenge) throw new AppError('passkey_not_verified');
    const credentialId = typeof input.response.id === 'string' ? input.response.id : '';
    const passkey =
      credentialId && credentialId.length <= 1400 ? await passkeyQueries.findPasskeyByCredentialId(this.db, credentialId) : undefined;
    if (!passkey) throw new AppError('passkey_not_verified');
    // the assertion is a guess at the user's passkey (FactorChecks.checkGuess): its new signature counter when right
    const newCounter = await this.deps.checks.checkGuess(passkey.user_id, input.ip, async () => {
      try {
        const verification = await (
          await webAuthn()
        ).verifyAuthenticationResponse({
          response: input.response as unknown as AuthenticationResponseJSON,
          expectedChallenge: challenge.challenge,
          expectedOrigin: this.origin,
          expectedRPID: this.rpID,
          credential: {
            id: passkey.credential_id,
            publicKey: new Uint8Array(passkey.public_key),
            counter: Number(passkey.counter),
            transports: passkey.transports,
          },
          requireUserVerification: true,
        });
        return verification.verified ? verification.authenticationInfo.newCounter : false;
      } catch {
        return false;
      }
    });
    if (newCounter === false) this.deps.checks.failedCheck('passkey_not_verified');
    await passkeyQueries.markPasskeyUsed(this.db, passkey.id, newCounter);
    this.deps.checks.checked(null);
    const amr = [passkey.device_type === 'multiDevice' ? AMR.softwareKey : AMR.hardwareKey, AMR.multiFactor];
    const pending = await this.deps.secondStep.pending(input.secondStepCookie);
    if (pending && pending.step.user_id === passkey.user_id) return this.deps.secondStep.finish(pending, amr);
    // an account of an identity provider signs in there first: its passkey is only its second step
    if (await q.externalIdpOf(this.db, passkey.user_id)) throw new AppError('passkey_not_verified');
    return { userId: passkey.user_id, persistent: input.remember === true, amr, returnTo: await returnTo(), clearSecondStepCookie: false };
  }
}
