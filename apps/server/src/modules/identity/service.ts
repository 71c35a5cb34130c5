import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ContextResponse, ErrorMessage, LoginConsentResponse, LogoutResponse } from '@partner-portal/contracts';
import { confirmationMismatch, safeReturnPath as sameOriginReturnPath } from '@partner-portal/contracts';
import { hashPassword, verifyPassword } from '../../passwords.js';
import { AppError } from '../../http/problem.js';
import { throttle } from '../../http/rate-limit.js';
import { hashSecret, newSecret, type SessionUser } from '../../http/session.js';
import { grantConsent, type Oidc } from '../../oidc/index.js';
import { frontchannelLogoutUris } from '../../oidc/provider.js';
import { EXTERNAL_IDP_ID } from '../../oidc/upstream.js';
import type { Services } from '../../services.js';
import { FactorService } from '../factors/service.js';
import { passwordResetEmail } from '../mail/messages.js';
import { LoginThrottle } from './login-throttle.js';
import { passwordProblems } from './password-policy.js';
import * as q from './queries.js';

/**
 * The rules of login, logout and the account flows (docs/product.md, "Flows and states" and "Validation" and "Calls" and "Errors"). No HTTP here beyond the
 * request and reply handed to the session store (which sets the cookie).
 */
export class IdentityService {
  /** an argon2id hash of a random password, verified for unknown e-mails so timing is equal */
  private dummyHash: Promise<string>;
  private readonly factors: FactorService;

  constructor(
    private readonly services: Services,
    private readonly oidc: Oidc,
  ) {
    this.dummyHash = hashPassword(newSecret());
    this.factors = new FactorService(services, oidc);
  }

  private get config() {
    return this.services.config;
  }

  // ---- throttling -------------------------------------------------------------------------------

  /** Forgot and reset password (e-mails sent, reset links tried): per account and per address. */
  private async throttleAccountAndIp(flow: string, account: string, ip: string): Promise<void> {
    const { LOGIN_RATE_LIMIT_PER_ACCOUNT, LOGIN_RATE_LIMIT_PER_IP, LOGIN_RATE_LIMIT_WINDOW_SECONDS } = this.config;
    await throttle(this.services.counters, `${flow}:ip:${ip}`, LOGIN_RATE_LIMIT_PER_IP, LOGIN_RATE_LIMIT_WINDOW_SECONDS);
    const key = await q.emailLimitKey(this.services.db, account);
    await throttle(this.services.counters, `${flow}:account:${key}`, LOGIN_RATE_LIMIT_PER_ACCOUNT, LOGIN_RATE_LIMIT_WINDOW_SECONDS);
  }

  // ---- return addresses (no open redirects) -----------------------------------------------------

  /**
   * The address the browser may go to after login: an interaction of this provider that is still
   * waiting, or an address registered by a client. Anything else is refused.
   */
  async validReturnUrl(returnUrl: string | null | undefined): Promise<string | null> {
    if (!returnUrl) return null;
    const uid = this.oidc.interactionUid(returnUrl);
    if (uid) {
      const interaction = await this.oidc.provider().Interaction.find(uid);
      if (!interaction) throw new AppError('interaction_expired');
      return this.oidc.interactionUrl(uid);
    }
    if (await this.isRegisteredClientUri(returnUrl)) return returnUrl;
    throw AppError.validation({ return_url: 'invalid_return_url' });
  }

  private async isRegisteredClientUri(url: string): Promise<boolean> {
    if (!/^https?:\/\//i.test(url)) return false;
    const { rows } = await this.services.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (
         SELECT payload AS m FROM oidc_payloads WHERE model = 'Client' AND (expires_at IS NULL OR expires_at > now())
         UNION ALL SELECT oidc_metadata FROM apps WHERE oidc_metadata IS NOT NULL
       ) c
       WHERE c.m->'redirect_uris' ? $1 OR c.m->'post_logout_redirect_uris' ? $1 OR c.m->>'client_uri' = $1 OR c.m->>'initiate_login_uri' = $1`,
      [url],
    );
    return (rows[0]?.n ?? 0) > 0;
  }

  /** A same-origin path by the one rule of the web app and the server (contracts return-path.ts), else null. */
  safeReturnPath(path: string | null | undefined): string | null {
    return sameOriginReturnPath(path);
  }

  // ---- login ------------------------------------------------------------------------------------

  /** GET /api/identity/context: who asks for the login (client name, hints) when ReturnUrl is an interaction. */
  async context(returnUrl: string | undefined): Promise<ContextResponse> {
    const empty: ContextResponse = { login_hint: null, idp: null, tenant: null, scopes: null, client: null };
    const uid = this.oidc.interactionUid(returnUrl);
    if (!uid) return empty;
    const provider = this.oidc.provider();
    const interaction = await provider.Interaction.find(uid);
    if (!interaction) return empty;
    const params = interaction.params as Record<string, unknown>;
    const clientId = typeof params.client_id === 'string' ? params.client_id : null;
    const client = clientId ? await provider.Client.find(clientId).catch(() => undefined) : undefined;
    const loginHint = typeof params.login_hint === 'string' ? params.login_hint : null;
    return {
      login_hint: loginHint,
      idp: loginHint && this.oidc.upstream?.ownsEmail(loginHint) ? this.oidc.upstream.name : null,
      tenant: null,
      scopes: typeof params.scope === 'string' ? params.scope.split(' ').filter(Boolean) : null,
      client: clientId ? { client_id: clientId, client_name: client?.clientName ?? null } : null,
    };
  }

  private externalChallengeUrl(returnUrl: string | null, invitationLogin: string | null, loginHint: string | null): string {
    const u = new URL('/api/identity/challenge-external-login', this.config.publicUrl);
    if (returnUrl) u.searchParams.set('returnUrl', returnUrl);
    if (invitationLogin) u.searchParams.set('invitationLogin', invitationLogin);
    if (loginHint) u.searchParams.set('loginHint', loginHint);
    return u.toString();
  }

  /** Whether an account (or an unknown address) logs in at the upstream identity provider. */
  private async logsInExternally(email: string): Promise<boolean> {
    if (!this.oidc.upstream) return false;
    if (this.oidc.upstream.ownsEmail(email)) return true;
    const user = await q.findUserByEmail(this.services.db, email);
    return user?.external_idp != null;
  }

  /** POST /api/identity/email-login: the first step says password or external login. */
  async emailLogin(input: { email: string; invitation_login?: boolean | null; return_url?: string | null }): Promise<LoginConsentResponse> {
    // no password is checked here: this step never counts toward a lock (login-throttle.ts)
    const returnUrl = await this.validReturnUrl(input.return_url);
    if (await this.logsInExternally(input.email)) {
      return {
        error: null,
        valid_return_url: returnUrl,
        external_login: this.externalChallengeUrl(returnUrl, input.invitation_login ? 'true' : null, input.email),
      };
    }
    return { error: null, valid_return_url: returnUrl, external_login: null };
  }

  /** POST /api/identity/login: check the password, start the session, say where to go next. */
  async login(
    request: FastifyRequest,
    reply: FastifyReply,
    input: { email: string; password: string; remember?: boolean | null; return_url?: string | null; return_path?: string | null },
  ): Promise<LoginConsentResponse> {
    const user = await q.findUserByEmail(this.services.db, input.email);
    const returnUrl = await this.validReturnUrl(input.return_url);
    const throttle = await LoginThrottle.for(this.services, request, input.email, user?.id);
    await throttle.takeGuess();
    const hash = user?.password_hash && !user.external_idp ? user.password_hash : await this.dummyHash;
    const ok = await verifyPassword(hash, input.password);
    if (!user || !ok || !user.password_hash || user.external_idp || this.oidc.upstream?.ownsEmail(user.email)) {
      this.services.metrics.login(false);
      throw new AppError('invalid_login');
    }
    await throttle.succeeded(reply, user.id);
    const secondStep = await this.factors.afterPassword(request, reply, user.id, {
      remember: input.remember === true,
      returnTo: returnUrl ?? this.safeReturnPath(input.return_path),
    });
    if (secondStep) return secondStep;
    await this.services.sessions.start(request, reply, user.id, input.remember === true);
    this.services.metrics.login(true);
    return { error: null, valid_return_url: returnUrl ?? this.safeReturnPath(input.return_path), external_login: null };
  }

  /** POST /api/identity/consent: grant (optionally remembered) or deny what the interaction asks. */
  async consent(
    user: SessionUser,
    input: { deny?: boolean | null; remember?: boolean | null; return_url: string },
  ): Promise<LoginConsentResponse> {
    const uid = this.oidc.interactionUid(input.return_url);
    if (!uid) throw AppError.validation({ return_url: 'invalid_return_url' });
    const provider = this.oidc.provider();
    const interaction = await provider.Interaction.find(uid);
    if (!interaction) throw new AppError('interaction_expired');
    if (interaction.prompt.name !== 'consent' || interaction.session?.accountId !== user.id) throw new AppError('invalid_operation');
    if (input.deny) {
      interaction.result = { error: 'access_denied', error_description: 'End-User aborted interaction' };
    } else {
      const grantId = await grantConsent(this.services, provider, interaction, user.id, input.remember === true);
      interaction.result = { ...interaction.lastSubmission, consent: { grantId } };
    }
    await interaction.save(interaction.exp - Math.floor(Date.now() / 1000));
    return { error: null, valid_return_url: interaction.returnTo, external_login: null };
  }

  // ---- errors -----------------------------------------------------------------------------------

  async errorMessage(errorId: string): Promise<ErrorMessage> {
    const record = await this.oidc.errors.find(errorId);
    if (!record) throw new AppError('unknown_error_id');
    return {
      display_mode: record.display_mode,
      ui_locales: record.ui_locales,
      error: record.error,
      error_description: record.error_description,
      request_id: record.request_id,
      activity_id: null,
      redirect_uri: record.redirect_uri,
      response_mode: record.response_mode,
      client_id: record.client_id,
    };
  }

  // ---- logout -----------------------------------------------------------------------------------

  /**
   * POST /api/identity/logout: ends the portal session (cookie removed). With the logoutId of an
   * RP-initiated logout, the answer sends the browser through the provider's confirmation, which
   * ends the provider session and reaches the client's post_logout_redirect_uri; without one, the
   * provider session of this browser is ended here.
   */
  async logout(request: FastifyRequest, reply: FastifyReply, logoutId: string | null | undefined): Promise<LogoutResponse> {
    await this.services.sessions.end(request, reply);
    const record = logoutId ? await this.oidc.logouts.find(logoutId) : undefined;
    if (record && logoutId) {
      const id = encodeURIComponent(logoutId);
      return {
        iframe_url: record.frontchannelUris.length ? `${this.config.publicUrl}/connect/logout/frontchannel?logoutId=${id}` : null,
        post_logout_redirect_uri: `${this.config.publicUrl}/connect/logout/confirm?logoutId=${id}`,
      };
    }
    const frontchannelUris = await this.endProviderSession(request, reply);
    if (!frontchannelUris.length) return { iframe_url: null, post_logout_redirect_uri: null };
    const frameId = await this.oidc.logouts.create({
      xsrf: '',
      accountId: '',
      clientId: null,
      postLogoutRedirectUri: null,
      frontchannelUris,
    });
    return {
      iframe_url: `${this.config.publicUrl}/connect/logout/frontchannel?logoutId=${encodeURIComponent(frameId)}`,
      post_logout_redirect_uri: null,
    };
  }

  /**
   * End this browser's provider session: back-channel logout of its clients, grants revoked,
   * cookie removed. Returns the front-channel logout URLs of its clients (for iframe_url).
   */
  private async endProviderSession(request: FastifyRequest, reply: FastifyReply): Promise<string[]> {
    const sessionCookie = request.cookies._session;
    for (const name of ['_session', '_session.sig', '_session.legacy', '_session.legacy.sig']) {
      if (request.cookies[name] !== undefined) void reply.clearCookie(name, { path: '/' });
    }
    if (!sessionCookie || sessionCookie.length > 200) return [];
    const provider = this.oidc.provider();
    const session = await provider.Session.find(sessionCookie);
    if (!session) return [];
    const accountId = session.accountId;
    const frontchannel = await frontchannelLogoutUris(provider, session, this.config.publicUrl);
    for (const [clientId, authorization] of Object.entries(session.authorizations ?? {})) {
      const client = await provider.Client.find(clientId).catch(() => undefined);
      const backchannel = client as unknown as
        { backchannelLogoutUri?: string; backchannelLogout(sub: string, sid: string): Promise<void> } | undefined;
      if (backchannel?.backchannelLogoutUri && accountId) {
        await backchannel.backchannelLogout(accountId, session.sidFor(clientId) ?? '').catch((err: unknown) => {
          this.services.log.warn({ err, clientId }, 'back-channel logout failed');
        });
      }
      const grantId = authorization.grantId;
      if (grantId && !authorization.persistsLogout) {
        await Promise.all([
          provider.AccessToken.revokeByGrantId(grantId),
          provider.RefreshToken.revokeByGrantId(grantId),
          provider.AuthorizationCode.revokeByGrantId(grantId),
          provider.Grant.adapter.destroy(grantId),
        ]);
      }
    }
    await session.destroy();
    return frontchannel;
  }

  // ---- account ----------------------------------------------------------------------------------

  async changePassword(
    user: SessionUser,
    input: { current_password: string; new_password: string; confirm_password: string },
  ): Promise<void> {
    if (user.externalIdentityProvider) throw new AppError('external_identity_user');
    const fields: Record<string, ('password_error_no_match' | ReturnType<typeof passwordProblems>[number])[]> = {};
    const problems = passwordProblems(input.new_password);
    if (problems.length) fields.new_password = problems;
    if (confirmationMismatch(input.new_password, input.confirm_password)) fields.confirm_password = ['password_error_no_match'];
    if (Object.keys(fields).length) throw AppError.validation(fields);
    const row = await q.findUserById(this.services.db, user.id);
    const ok = row?.password_hash ? await verifyPassword(row.password_hash, input.current_password) : false;
    if (!row || !ok) throw new AppError('current_password_incorrect');
    await q.setPasswordHash(this.services.db, user.id, await hashPassword(input.new_password));
    // other browsers signed in as this user are signed out; this one stays
    await this.services.sessions.endAllForUser(user.id, this.services.db, user.sessionIdHash);
    await this.factors.notify(user.id, 'password-changed');
  }

  async updateProfile(user: SessionUser, input: { first_name: string; last_name: string; language_code: string }): Promise<void> {
    await q.updateProfile(this.services.db, user.id, input.first_name.trim(), input.last_name.trim(), input.language_code);
  }

  /**
   * POST /api/identity/forgot-password: always the same answer at once; the lookup and the
   * e-mail happen after it, so neither the status, the body nor the timing tells whether the
   * address has an account. External accounts get no e-mail (they have no password here).
   */
  async forgotPassword(ip: string, email: string): Promise<void> {
    await this.throttleAccountAndIp('forgot-password', email, ip);
    setImmediate(() => {
      this.sendResetEmail(email).catch((err: unknown) => this.services.log.error({ err }, 'password reset e-mail failed'));
    });
  }

  private async sendResetEmail(email: string): Promise<void> {
    const user = await q.findUserByEmail(this.services.db, email);
    if (!user || user.external_idp || this.oidc.upstream?.ownsEmail(user.email)) return;
    const code = newSecret();
    await q.createResetToken(this.services.db, user.id, hashSecret(code), this.config.RESET_TOKEN_TTL_SECONDS);
    const link = `${this.config.publicUrl}/reset-password?userId=${encodeURIComponent(user.id)}&code=${encodeURIComponent(code)}`;
    const message = passwordResetEmail({ language: user.language_code, link, firstName: user.first_name });
    await this.services.mailer.send({ to: user.email, ...message, kind: 'password-reset' });
  }

  /**
   * POST /api/identity/validate-reset-token: whether the link still works. An unknown user is answered
   * exactly like a known one with a wrong code, so that the answer tells nobody which user ids exist.
   */
  async validateResetToken(input: { user_id: string; token: string }): Promise<{ is_valid: boolean; reset_token: string | null }> {
    const user = await q.findUserById(this.services.db, input.user_id);
    // the same lookup for everybody (the nil id has no tokens), so that the time tells nothing either
    const owner = user && !user.external_idp ? user.id : '00000000-0000-0000-0000-000000000000';
    const live = await q.findLiveResetToken(this.services.db, owner, hashSecret(input.token));
    return live ? { is_valid: true, reset_token: input.token } : { is_valid: false, reset_token: null };
  }

  /** PUT /api/identity/reset-password: once, within the hour; ends every session of the user. */
  async resetPassword(ip: string, input: { user_id: string; token: string; password: string; confirm_password: string }): Promise<void> {
    await this.throttleAccountAndIp('reset-password', input.user_id, ip);
    const fields: Record<string, ('password_error_no_match' | ReturnType<typeof passwordProblems>[number])[]> = {};
    const problems = passwordProblems(input.password);
    if (problems.length) fields.password = problems;
    if (confirmationMismatch(input.password, input.confirm_password)) fields.confirm_password = ['password_error_no_match'];
    if (Object.keys(fields).length) throw AppError.validation(fields);
    const user = await q.findUserById(this.services.db, input.user_id);
    if (!user || user.external_idp) throw new AppError('reset_link_expired');
    const token = await q.findLiveResetToken(this.services.db, user.id, hashSecret(input.token));
    if (!token) throw new AppError('reset_link_expired');
    const passwordHash = await hashPassword(input.password);
    await this.services.db.transaction(async (tx) => {
      if (!(await q.consumeResetToken(tx, token.id))) throw new AppError('reset_link_expired');
      await q.setPasswordHash(tx, user.id, passwordHash);
      await this.services.sessions.endAllForUser(user.id, tx);
      await q.revokeProviderArtifacts(tx, user.id);
    });
    await this.factors.notify(user.id, 'password-changed');
  }

  // ---- external identity provider -----------------------------------------------------------------

  /** Find the portal account of an upstream identity, linking an invited account on its first login. */
  async accountForUpstreamIdentity(identity: {
    subject: string;
    email: string | null;
    emailVerified: boolean;
  }): Promise<q.UserRow | undefined> {
    const db = this.services.db;
    const linked = await q.findUserByExternalSubject(db, EXTERNAL_IDP_ID, identity.subject);
    if (linked) return linked;
    if (!identity.email || !identity.emailVerified) return undefined;
    const account = await q.findUserByEmail(db, identity.email);
    if (!account || account.external_subject !== null) return undefined;
    // an invited external account; or an account of a domain that logs in upstream (EXTERNAL_IDP_EMAIL_DOMAINS)
    const adoptNative = account.external_idp === null && this.oidc.upstream?.ownsEmail(account.email) === true;
    if (account.external_idp !== EXTERNAL_IDP_ID && !adoptNative) return undefined;
    const done = await q.linkExternalSubject(db, account.id, EXTERNAL_IDP_ID, identity.subject, adoptNative);
    return done ? { ...account, external_idp: EXTERNAL_IDP_ID, external_subject: identity.subject, password_hash: null } : undefined;
  }
}
