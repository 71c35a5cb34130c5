import { hashPassword, verifyPassword } from '../../password-hashing.js';
import { AppError } from '../../http/problem.js';
import { hashSecret, newSecret, type SessionUser } from '../../http/session.js';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { Logger } from 'pino';
import type { Mailer } from '../mail/mailer.js';
import type { CounterStore } from '../../http/rate-limit.js';
import type { AccountAccess } from '../sessions/service.js';
import type { SsoRouting } from '../sso/routing.js';
import { EXTERNAL_IDP_ID } from '../../oidc/upstream.js';
import { passwordResetEmail } from '../mail/messages.js';
import { sendSecurityNotice } from '../mail/security-notices.js';
import { memberEvent, recordChange } from '../webhooks/changes.js';
import { throttleAccountAndIp } from './login-throttle.js';
import { assertNewPassword } from './password-policy.js';
import { enqueuePasswordResetRequest } from './reset-requests.js';
import * as q from './queries.js';

/** What the account's rules depend on (built in module-services.ts). */
export interface AccountDeps {
  db: Database;
  config: Config;
  log: Logger;
  mailer: Mailer;
  counters: CounterStore;
  access: AccountAccess;
  routing: SsoRouting;
}

/**
 * The account's password (changed, forgotten, reset) and its profile (docs/product.md, "Flows and
 * states" and "Validation"), of plain values: the routes (account-routes.ts) read the request.
 */
export class Accounts {
  constructor(private readonly deps: AccountDeps) {}

  /**
   * POST /api/identity/change-password, in one transaction: the new password, the other browsers
   * signed in as the user signed out, and every grant and token the user's clients hold revoked
   * (their back-channel logouts written to the outbox in it). This browser's portal session stays;
   * its clients' grants end too: a password is changed when it may be known to someone else, and
   * tokens are held by the clients, where nothing tells the user's own from another's. The clients
   * sign this browser in again without a password (the portal session completes their next
   * authorization).
   */
  async changePassword(
    user: SessionUser,
    input: { current_password: string; new_password: string; confirm_password: string },
  ): Promise<void> {
    const services = this.deps;
    const { access } = services;
    if (user.externalIdentityProvider) throw new AppError('external_identity_user');
    assertNewPassword(input.new_password, input.confirm_password, { password: 'new_password', confirmation: 'confirm_password' });
    const row = await q.findUserById(services.db, user.id);
    const ok = row?.password_hash ? await verifyPassword(row.password_hash, input.current_password) : false;
    if (!row || !ok) throw new AppError('current_password_incorrect');
    const passwordHash = await hashPassword(input.new_password);
    await services.db.transaction(async (tx) => {
      await q.setPasswordHash(tx, user.id, passwordHash);
      await access.revokeAll(tx, user.id, { portalSession: user.sessionIdHash, providerSession: null });
      await sendSecurityNotice(services, user.id, 'password-changed', undefined, tx);
    });
  }

  /** PUT /api/identity/update-profile: names and language (a member.updated event when they change). */
  async updateProfile(user: SessionUser, input: { first_name: string; last_name: string; language_code: string }): Promise<void> {
    const services = this.deps;
    const after = { first_name: input.first_name.trim(), last_name: input.last_name.trim(), language_code: input.language_code };
    const before = { first_name: user.firstName, last_name: user.lastName, language_code: user.languageCode };
    const changed = (Object.keys(after) as (keyof typeof after)[]).filter((field) => after[field] !== before[field]);
    if (!changed.length) return q.updateProfile(services.db, user.id, after.first_name, after.last_name, after.language_code);
    await services.db.transaction(async (tx) => {
      await q.updateProfile(tx, user.id, after.first_name, after.last_name, after.language_code);
      // the audit log does not keep a member's own profile; other systems hear of it
      await recordChange(
        tx,
        { kind: 'person', userId: user.id, email: user.email, requestId: null },
        { audited: false, events: [await memberEvent(tx, 'member.updated', user.id, { changed })] },
      );
    });
  }

  /**
   * POST /api/identity/forgot-password: always the same answer, after the same work: the throttle,
   * then the request written to the outbox (reset-requests.ts) whatever the address, so that neither
   * the status, the body nor the timing tells whether the address has an account, and a crash after
   * the answer loses no reset. The lookup and the e-mail happen in the outbox's worker
   * (sendResetEmail). External accounts get no e-mail (they have no password here).
   */
  async forgotPassword(ip: string, email: string): Promise<void> {
    const services = this.deps;
    await throttleAccountAndIp(services, 'forgot-password', email, ip);
    await enqueuePasswordResetRequest(services.db, email);
  }

  /**
   * Whether an account signs in at an identity provider, and so gets no password here: an account of
   * the EXTERNAL_IDP_* provider, or one an identity provider signs in (modules/sso/routing.ts). An
   * account of a connection that no longer signs it in (the connection deleted, its domain no
   * longer verified) may have a password: the reset unlinks it (resetPassword).
   */
  private async signsInElsewhere(user: q.UserRow): Promise<boolean> {
    const { routing } = this.deps;
    return user.external_idp === EXTERNAL_IDP_ID || (await routing.served(user.email)) !== null;
  }

  /** A reset asked for: for an account with a password here, its token and e-mail in one transaction (the outbox's worker, reset-requests.ts). */
  async sendResetEmail(email: string): Promise<void> {
    const services = this.deps;
    const { config } = services;
    const user = await q.findUserByEmail(services.db, email);
    if (!user || (await this.signsInElsewhere(user))) return;
    const code = newSecret();
    // the link carries the user's language: the page speaks it whatever the browser's
    const link = `${config.publicUrl}/reset-password?userId=${encodeURIComponent(user.id)}&code=${encodeURIComponent(code)}&lang=${encodeURIComponent(user.language_code)}`;
    const message = passwordResetEmail({ language: user.language_code, link, firstName: user.first_name });
    // the token and its e-mail together (the mail outbox): no working link nobody was sent
    await services.db.transaction(async (tx) => {
      await q.createResetToken(tx, user.id, hashSecret(code), config.RESET_TOKEN_TTL_SECONDS);
      await services.mailer.enqueue({ to: user.email, ...message, kind: 'password-reset' }, { tx });
    });
  }

  /**
   * POST /api/identity/validate-reset-token: whether the link still works. An unknown user is answered
   * exactly like a known one with a wrong code, so that the answer tells nobody which user ids exist.
   */
  async validateResetToken(input: { user_id: string; token: string }): Promise<{ is_valid: boolean; reset_token: string | null }> {
    const services = this.deps;
    const user = await q.findUserById(services.db, input.user_id);
    // the same lookup for everybody (the nil id has no tokens), so that the time tells nothing either
    const owner = user && !(user.external_idp && (await this.signsInElsewhere(user))) ? user.id : '00000000-0000-0000-0000-000000000000';
    const live = await q.findLiveResetToken(services.db, owner, hashSecret(input.token));
    return live ? { is_valid: true, reset_token: input.token } : { is_valid: false, reset_token: null };
  }

  /**
   * PUT /api/identity/reset-password: once, within the hour; ends every access of the user (portal
   * sessions, the clients' grants and tokens, back-channel logout through the outbox).
   */
  async resetPassword(ip: string, input: { user_id: string; token: string; password: string; confirm_password: string }): Promise<void> {
    const services = this.deps;
    const { access } = services;
    await throttleAccountAndIp(services, 'reset-password', input.user_id, ip);
    assertNewPassword(input.password, input.confirm_password, { password: 'password', confirmation: 'confirm_password' });
    const user = await q.findUserById(services.db, input.user_id);
    if (!user || (await this.signsInElsewhere(user))) throw new AppError('reset_link_expired');
    const token = await q.findLiveResetToken(services.db, user.id, hashSecret(input.token));
    if (!token) throw new AppError('reset_link_expired');
    const passwordHash = await hashPassword(input.password);
    await services.db.transaction(async (tx) => {
      if (!(await q.consumeResetToken(tx, token.id))) throw new AppError('reset_link_expired');
      // an account no provider signs in any more becomes a native one
      await q.setPasswordHash(tx, user.id, passwordHash, { unlink: user.external_idp !== null });
      await access.revokeAll(tx, user.id);
      await sendSecurityNotice(services, user.id, 'password-changed', undefined, tx);
    });
  }
}
