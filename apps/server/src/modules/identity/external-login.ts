import { DEFAULT_USER_LANGUAGE, safeReturnPath, userLanguageOf, type ErrorKey, type UserLanguage } from '@partner-portal/contracts';
import type { Logger } from 'pino';
import type { Database } from '../../db/client.js';
import { AppError } from '../../http/problem.js';
import type { SessionUser } from '../../http/session.js';

/**
 * Who runs a connection's test sign-in: a signed-in person, or a dealer's IT person through a setup
 * link (http/actor.ts SetupLinkPrincipal: the link's id, organization and limited rights).
 */
export type ConnectionTester = Pick<SessionUser, 'id' | 'organizationPath' | 'organizationManager'>;
import type { ExternalLoginRecord } from '../../oidc/records.js';
import { validReturnUrl } from '../../oidc/return-url.js';
import type { Oidc } from '../../oidc/runtime.js';
import { EXTERNAL_IDP_ID, type UpstreamIdentity } from '../../oidc/upstream.js';
import { AMR, type SecondStep } from '../factors/second-step.js';
import { isPathInSubtree } from '../scope/access.js';
import type { ConnectionInfo, SsoProviders } from '../sso/providers.js';
import type { SsoRouting } from '../sso/routing.js';
import * as q from './queries.js';
import type { UpstreamAccounts } from './upstream-link.js';

/**
 * The sign-in at an upstream identity provider (a single sign-on connection, or the EXTERNAL_IDP_*
 * provider), as values for external-login-routes.ts: the challenge that sends the browser there
 * (state, nonce and PKCE kept in an ExternalLogin record), and the callback that checks the answer,
 * finds the account (upstream-link.ts) and says what the route does: start a session, continue to
 * the portal's second step (docs/second-factors.md), show a named error on the login page, or,
 * for a manager's test of a connection, go back to the web app with the result and sign nobody in.
 */

export type ChallengeOutcome = { kind: 'redirect'; url: string; loginId: string } | Failure;

type Failure =
  { kind: 'error'; key: ErrorKey; params: Record<string, string> | null; description: string | null } | { kind: 'redirect'; url: string };

export type CallbackOutcome =
  | Failure
  | { kind: 'session'; userId: string; amr: string[]; url: string }
  | { kind: 'second-step'; secondStepCookie: string; url: string };

/** The user language of a browser's Accept-Language header (its most wanted language the portal speaks), else en. */
export function browserLanguage(header: string | undefined): UserLanguage {
  const wanted = (header ?? '')
    .split(',')
    .map((part, i) => {
      const [tag = '', ...rest] = part.trim().split(';');
      const q = Number(/q=([\d.]+)/.exec(rest.join(';'))?.[1] ?? '1');
      return { tag, q: Number.isFinite(q) ? q : 0, i };
    })
    .filter((w) => w.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const { tag } of wanted) {
    const language = userLanguageOf(tag);
    if (language) return language;
  }
  return DEFAULT_USER_LANGUAGE;
}

/** A path of the web app with the test's result in its query. */
function withResult(returnPath: string, result: Record<string, string>): string {
  const url = new URL(returnPath, 'https://portal.invalid');
  for (const [key, value] of Object.entries(result)) url.searchParams.set(key, value);
  return `${url.pathname}${url.search}${url.hash}`;
}

export class ExternalLogin {
  constructor(
    private readonly deps: {
      db: Database;
      log: Logger;
      oidc: Oidc;
      providers: SsoProviders;
      routing: SsoRouting;
      accounts: UpstreamAccounts;
      secondStep: SecondStep;
    },
  ) {}

  /**
   * GET /api/identity/challenge-external-login. The provider: `connection` when given; else the
   * one the invitation's address (invitationLogin, the invitation page's way in) or the login hint
   * signs in at (modules/sso/routing.ts); else the EXTERNAL_IDP_* provider (404 when none is
   * configured). `test` (a manager's test of a connection): only with the session of an
   * organizationManager of the connection's organization, an ancestor, or a descendant.
   */
  async challenge(input: {
    connection?: string | undefined;
    invitationLogin?: string | undefined;
    loginHint?: string | undefined;
    returnUrl?: string | undefined;
    returnPath?: string | undefined;
    test: boolean;
    user: ConnectionTester | null;
  }): Promise<ChallengeOutcome> {
    const { db, oidc, providers, routing, log } = this.deps;
    let connectionId = input.connection ?? null;
    let loginHint = input.loginHint ?? null;
    if (!connectionId && input.invitationLogin) {
      const invitation = await q.findInvitationAddress(db, input.invitationLogin);
      if (invitation) {
        loginHint ??= invitation.email;
        const route =
          (await routing.route(invitation.email)) ?? (await routing.forInvitation(invitation.email, invitation.organization_path));
        connectionId = route?.id ?? null;
      }
    }
    if (!connectionId && loginHint) connectionId = (await routing.route(loginHint))?.id ?? null;
    const found = await providers.find(connectionId ?? EXTERNAL_IDP_ID);
    if (!found && !input.connection) throw new AppError('not_found');
    if (!found) return this.failure(null, 'external_login_failed', null, 'The sign-in connection does not exist (any more).');
    const returnPath = safeReturnPath(input.returnPath) ?? (input.test ? '/' : null);
    const test = input.test ? { returnPath: returnPath!, userId: this.assertMayTest(input.user, found.connection) } : null;
    let start;
    try {
      start = await found.idp.start({ loginHint, ...(test ? { prompt: 'login' as const } : {}) });
    } catch (err) {
      log.warn({ err, connection: found.connection.id }, 'external identity provider unavailable');
      return this.failure(
        test,
        test ? 'sso_discovery_failed' : 'external_login_failed',
        null,
        'The external identity provider could not be reached.',
      );
    }
    const record: ExternalLoginRecord = {
      state: start.state,
      nonce: start.nonce,
      codeVerifier: start.codeVerifier,
      returnUrl: test ? null : await validReturnUrl(oidc, db, input.returnUrl).catch(() => null),
      invitationLogin: input.invitationLogin ?? null,
      connectionId: found.connection.id,
      email: loginHint,
      returnPath,
      test,
    };
    return { kind: 'redirect', url: start.url, loginId: await oidc.externalLogins.create(record) };
  }

  /** GET /api/identity/login-external-callback: the provider's answer, checked (the rules: upstream-link.ts). */
  async callback(input: {
    loginId: string | undefined;
    callbackUrl: URL;
    upstreamError: boolean;
    language: UserLanguage;
    requestId: string;
    user: ConnectionTester | null;
  }): Promise<CallbackOutcome> {
    const { oidc, db, providers, accounts, log } = this.deps;
    const record = await oidc.externalLogins.find(input.loginId);
    if (!record || !input.loginId) {
      return this.failure(null, 'external_login_failed', null, 'The external login expired or was started in another browser.');
    }
    await oidc.externalLogins.destroy(input.loginId);
    const test = record.test ?? null;
    const found = await providers.find(record.connectionId ?? EXTERNAL_IDP_ID);
    if (!found) return this.failure(test, 'external_login_failed', null, 'The sign-in connection does not exist (any more).');
    const { connection, idp } = found;
    // the provider refused (it does not know the person, or they cancelled): the message names the
    // connection and whom to ask, its organization's managers
    if (input.upstreamError) {
      if (connection.configured || connection.organizationName === null) return this.failure(test, 'external_login_failed', null, null);
      return this.failure(test, 'sso_sign_in_failed', { connection: connection.name, organization: connection.organizationName }, null);
    }
    let identity: UpstreamIdentity;
    try {
      identity = await idp.finish(input.callbackUrl, record);
    } catch (err) {
      log.warn({ err, connection: connection.id }, 'external login failed');
      return this.failure(test, 'external_login_failed', null, 'The answer of the external identity provider could not be verified.');
    }
    if (test && input.user?.id !== test.userId) return this.failure(test, 'external_login_failed', null, null);
    const outcome = await accounts.resolve(connection, identity, {
      typedEmail: record.email ?? null,
      language: input.language,
      requestId: input.requestId,
      dryRun: test !== null,
    });
    if (!outcome.ok) {
      const description =
        outcome.error === 'external_login_failed'
          ? 'No portal account is linked to this identity. Ask your administrator for an invitation.'
          : null;
      return this.failure(test, outcome.error, connection.configured ? null : { connection: connection.name }, description);
    }
    if (test) return { kind: 'redirect', url: withResult(test.returnPath, { sso_test: 'ok', sso_test_email: outcome.email }) };
    const userId = outcome.userId!;
    const returnUrl = record.returnUrl ? await validReturnUrl(oidc, db, record.returnUrl).catch(() => null) : null;
    const returnPath = safeReturnPath(record.returnPath);
    // an ID token whose amr says "mfa" proves a second factor; else the portal's second step follows as after a password
    if (identity.amr.includes(AMR.multiFactor)) {
      return { kind: 'session', userId, amr: [AMR.federated, AMR.multiFactor], url: returnUrl ?? returnPath ?? '/' };
    }
    const pending = await this.deps.secondStep.afterPassword(userId, {
      remember: false,
      returnTo: returnUrl ?? returnPath,
      firstFactor: AMR.federated,
    });
    if (!pending) return { kind: 'session', userId, amr: [AMR.federated], url: returnUrl ?? returnPath ?? '/' };
    const login = new URLSearchParams({ next_step: pending.response.next_step ?? 'second_factor' });
    if (returnUrl) login.set('ReturnUrl', returnUrl);
    if (returnPath) login.set('returnPath', returnPath);
    return { kind: 'second-step', secondStepCookie: pending.secondStepCookie, url: `/login?${login.toString()}` };
  }

  /** The signed-in organizationManager who may test a connection (of their organization, an ancestor's, or a descendant's): their id. */
  private assertMayTest(user: ConnectionTester | null, connection: ConnectionInfo): string {
    if (!user) throw new AppError('unauthorized');
    const path = user.organizationPath;
    const related =
      path !== null && (isPathInSubtree(path, connection.organizationPath) || isPathInSubtree(connection.organizationPath, path));
    if (!user.organizationManager || !related) throw new AppError('forbidden');
    return user.id;
  }

  /** A refusal: the login page's named error, or, in a test, back to the web app with the error's key. */
  private failure(
    test: { returnPath: string } | null,
    key: ErrorKey,
    params: Record<string, string> | null,
    description: string | null,
  ): Failure {
    if (test) return { kind: 'redirect', url: withResult(test.returnPath, { sso_test: key }) };
    return { kind: 'error', key, params, description };
  }
}
