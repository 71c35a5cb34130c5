import {
  safeReturnPath,
  type ContextResponse,
  type ErrorMessage,
  type LoginConsentResponse,
  type LogoutResponse,
} from '@partner-portal/contracts';
import type { SqlStatement } from '../../db/sql.js';
import { hashPassword, verifyPassword } from '../../password-hashing.js';
import { AppError } from '../../http/problem.js';
import { newSecret, type SessionUser } from '../../http/session.js';
import { grantConsent } from '../../oidc/interaction.js';
import type { Oidc } from '../../oidc/runtime.js';
import { endProviderSession } from '../../oidc/logout.js';
import { validReturnUrl } from '../../oidc/return-url.js';
import { EXTERNAL_IDP_ID } from '../../oidc/upstream.js';
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { Metrics } from '../../http/metrics.js';
import type { CounterStore } from '../../http/rate-limit.js';
import type { SecondFactorState } from '../factors/queries.js';
import type { SsoRoute, SsoRouting } from '../sso/routing.js';
import { LoginThrottle } from './login-throttle.js';

/**
 * The session and the login (docs/product.md, "Flows and states", "Calls" and "Errors"): who asks
 * for the login, the e-mail and password steps, consent, error records, and logout. Functions of
 * plain values: the routes (routes.ts) read the request and set cookies.
 */

/** What the login depends on (built in module-services.ts). */
export interface LoginDeps {
  db: Database;
  config: Config;
  log: Logger;
  metrics: Metrics;
  counters: CounterStore;
  oidc: Oidc;
  routing: SsoRouting;
}

/**
 * The login as a service of the registry (module-services.ts): its steps below, each given the
 * provider and the single sign-on routing it was built with.
 */
export class Login {
  constructor(private readonly deps: LoginDeps) {}

  /** GET /api/identity/context (context below) */
  context(returnUrl: string | undefined): Promise<ContextResponse> {
    return context(this.deps.oidc, this.deps.routing, returnUrl);
  }

  /** POST /api/identity/email-login (emailLogin below) */
  emailLogin(input: Parameters<typeof emailLogin>[3]): Promise<LoginConsentResponse> {
    return emailLogin(this.deps, this.deps.oidc, this.deps.routing, input);
  }

  /** POST /api/identity/login (checkPassword below) */
  checkPassword<R>(input: Parameters<typeof checkPassword>[3], signIn: SignIn<R>): Promise<{ deviceCookie: string; signedIn: R }> {
    return checkPassword(this.deps, this.deps.oidc, this.deps.routing, input, signIn);
  }

  /** POST /api/identity/consent (consent below) */
  consent(user: SessionUser, input: Parameters<typeof consent>[3]): Promise<LoginConsentResponse> {
    return consent(this.deps, this.deps.oidc, user, input);
  }

  /** GET /api/identity/error and /login-error (errorMessage below) */
  errorMessage(errorId: string): Promise<ErrorMessage> {
    return errorMessage(this.deps.oidc, errorId);
  }

  /** POST /api/identity/logout, once the portal session has ended (logout below) */
  logout(input: Parameters<typeof logout>[2]): Promise<{ response: LogoutResponse; endedProviderSession: boolean }> {
    return logout(this.deps, this.deps.oidc, input);
  }
}

/** an argon2id hash of a random password, verified for unknown e-mails so timing is equal */
let dummyHash: Promise<string> | undefined;

/** The dummy hash, made once (call it at start so the first login is not slower). */
export function dummyPasswordHash(): Promise<string> {
  return (dummyHash ??= hashPassword(newSecret()));
}

/**
 * GET /api/identity/context: who asks for the login (client name, hints) when ReturnUrl is an
 * interaction; idp: the provider the login hint's address signs in at (modules/sso/routing.ts).
 */
export async function context(oidc: Oidc, routing: SsoRouting, returnUrl: string | undefined): Promise<ContextResponse> {
  const empty: ContextResponse = { login_hint: null, idp: null, tenant: null, scopes: null, client: null };
  const uid = oidc.interactionUid(returnUrl);
  if (!uid) return empty;
  const provider = oidc.provider();
  const interaction = await provider.Interaction.find(uid);
  if (!interaction) return empty;
  const params = interaction.params as Record<string, unknown>;
  const clientId = typeof params.client_id === 'string' ? params.client_id : null;
  const client = clientId ? await provider.Client.find(clientId).catch(() => undefined) : undefined;
  const loginHint = typeof params.login_hint === 'string' ? params.login_hint : null;
  return {
    login_hint: loginHint,
    idp: loginHint ? ((await routing.route(loginHint))?.name ?? null) : null,
    tenant: null,
    scopes: typeof params.scope === 'string' ? params.scope.split(' ').filter(Boolean) : null,
    client: clientId ? { client_id: clientId, client_name: client?.clientName ?? null } : null,
  };
}

/** The challenge of a login at the provider of `route`: the connection's id ('external' is the default), the login hint, where to go after. */
function externalChallengeUrl(
  publicUrl: string,
  route: SsoRoute,
  options: { returnUrl: string | null; returnPath: string | null; invitationLogin: string | null; loginHint: string },
): string {
  const u = new URL('/api/identity/challenge-external-login', publicUrl);
  if (route.id !== EXTERNAL_IDP_ID) u.searchParams.set('connection', route.id);
  if (options.returnUrl) u.searchParams.set('returnUrl', options.returnUrl);
  if (options.returnPath) u.searchParams.set('returnPath', options.returnPath);
  if (options.invitationLogin) u.searchParams.set('invitationLogin', options.invitationLogin);
  u.searchParams.set('loginHint', options.loginHint);
  return u.toString();
}

/**
 * POST /api/identity/email-login: the first step says password or external login: the challenge
 * of the provider the address signs in at (modules/sso/routing.ts), with the address as login hint.
 */
export async function emailLogin(
  services: LoginDeps,
  oidc: Oidc,
  routing: SsoRouting,
  input: {
    email: string;
    invitation_login?: boolean | null;
    password_login?: boolean | null;
    return_url?: string | null;
    return_path?: string | null;
  },
): Promise<LoginConsentResponse> {
  // no password is checked here: this step never counts toward a lock (login-throttle.ts)
  const returnUrl = await validReturnUrl(oidc, services.db, input.return_url);
  const route = input.password_login ? null : await routing.route(input.email);
  if (route) {
    return {
      error: null,
      valid_return_url: returnUrl,
      external_login: externalChallengeUrl(services.config.publicUrl, route, {
        returnUrl,
        returnPath: returnUrl ? null : safeReturnPath(input.return_path),
        invitationLogin: input.invitation_login ? 'true' : null,
        loginHint: input.email,
      }),
    };
  }
  return { error: null, valid_return_url: returnUrl, external_login: null };
}

/** What the caller does after a right password (routes.ts: the second factors, the session). */
export type SignIn<R> = (account: {
  userId: string;
  returnUrl: string | null;
  /** the account's second factors, read before the hash (q.passwordStep) */
  secondFactor: SecondFactorState;
  /**
   * writes of the login to run in the caller's one write of the sign-in (the session's or the
   * second step's statement; db/sql.ts withAlongside): the device row, login-throttle.ts
   */
  alongside: readonly SqlStatement[];
}) => Promise<R>;

/**
 * POST /api/identity/login: check the password (throttled, login-throttle.ts). Returns the
 * device cookie to give the browser (deviceCookieOptions) and what `signIn` returned. Around the
 * hash the database is asked in as few rounds and statements as possible: each costs about a
 * millisecond here when the database's processes have to wake (docs/performance.md, "Password
 * logins"). With the counters in PostgreSQL: before the hash one statement (the account, its
 * second-factor state, the guesses taken), beside the check of the return address; after a
 * right password two side by side (the counters; the session or second step with the device
 * row). An unknown address runs the same statements and a dummy hash.
 */
export async function checkPassword<R>(
  services: LoginDeps,
  oidc: Oidc,
  routing: SsoRouting,
  input: { email: string; password: string; return_url?: string | null; ip: string; deviceCookie: string | undefined },
  signIn: SignIn<R>,
): Promise<{ deviceCookie: string; signedIn: R }> {
  const [checkedReturnUrl, guess] = await Promise.allSettled([
    validReturnUrl(oidc, services.db, input.return_url),
    LoginThrottle.takeGuess(services, { ip: input.ip, deviceCookie: input.deviceCookie }, input.email),
  ]);
  if (checkedReturnUrl.status === 'rejected') {
    // a refused return address ends the login before its password is checked: no guess is used
    if (guess.status === 'fulfilled') await guess.value.throttle.giveBack();
    throw checkedReturnUrl.reason;
  }
  if (guess.status === 'rejected') throw guess.reason;
  const returnUrl = checkedReturnUrl.value;
  const { throttle, step } = guess.value;
  const { user } = step;
  const hash = user?.password_hash && !user.external_idp ? user.password_hash : await dummyPasswordHash();
  const ok = await verifyPassword(hash, input.password);
  // an address that signs in at an identity provider never signs in with a password here (asked
  // after a right password only, and without a statement while no connection exists: routing.ts);
  // a deactivated account (members/activation.ts) is refused like a wrong password: the answer does
  // not tell that the password was right
  if (!user || !ok || !user.password_hash || user.external_idp || user.deactivated_at || (await routing.served(user.email))) {
    services.metrics.login(false);
    throw new AppError('invalid_login');
  }
  return throttle.succeeded(user.id, (alongside) => signIn({ userId: user.id, returnUrl, secondFactor: step.secondFactor, alongside }));
}

/** POST /api/identity/consent: grant (optionally remembered) or deny what the interaction asks. */
export async function consent(
  services: LoginDeps,
  oidc: Oidc,
  user: SessionUser,
  input: { deny?: boolean | null; remember?: boolean | null; return_url: string },
): Promise<LoginConsentResponse> {
  const uid = oidc.interactionUid(input.return_url);
  if (!uid) throw AppError.validation({ return_url: 'invalid_return_url' });
  const provider = oidc.provider();
  const interaction = await provider.Interaction.find(uid);
  if (!interaction) throw new AppError('interaction_expired');
  if (interaction.prompt.name !== 'consent' || interaction.session?.accountId !== user.id) throw new AppError('invalid_operation');
  if (input.deny) {
    interaction.result = { error: 'access_denied', error_description: 'End-User aborted interaction' };
  } else {
    const grantId = await grantConsent(services, provider, interaction, user.id, input.remember === true);
    interaction.result = { ...interaction.lastSubmission, consent: { grantId } };
  }
  await interaction.save(interaction.exp - Math.floor(Date.now() / 1000));
  return { error: null, valid_return_url: interaction.returnTo, external_login: null };
}

/** GET /api/identity/error and /login-error: an error record kept by the provider or the external login. */
export async function errorMessage(oidc: Oidc, errorId: string): Promise<ErrorMessage> {
  const record = await oidc.errors.find(errorId);
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
    ...(record.params ? { params: record.params } : {}),
  };
}

/**
 * POST /api/identity/logout, once the portal session has ended (routes.ts). With the logoutId of
 * an RP-initiated logout, the answer sends the browser through the provider's confirmation, which
 * ends the provider session and reaches the client's post_logout_redirect_uri; without one, the
 * provider session of this browser (its cookie) is ended here, and the caller removes the
 * provider's cookies (endedProviderSession).
 */
export async function logout(
  services: LoginDeps,
  oidc: Oidc,
  input: { logoutId: string | null | undefined; providerSessionCookie: string | undefined },
): Promise<{ response: LogoutResponse; endedProviderSession: boolean }> {
  const { publicUrl } = services.config;
  const { logoutId } = input;
  const record = logoutId ? await oidc.logouts.find(logoutId) : undefined;
  if (record && logoutId) {
    const id = encodeURIComponent(logoutId);
    return {
      response: {
        iframe_url: record.frontchannelUris.length ? `${publicUrl}/connect/logout/frontchannel?logoutId=${id}` : null,
        post_logout_redirect_uri: `${publicUrl}/connect/logout/confirm?logoutId=${id}`,
      },
      endedProviderSession: false,
    };
  }
  const frontchannelUris = await endProviderSession(oidc.provider(), services.log, publicUrl, input.providerSessionCookie);
  if (!frontchannelUris.length) return { response: { iframe_url: null, post_logout_redirect_uri: null }, endedProviderSession: true };
  const frameId = await oidc.logouts.create({
    xsrf: '',
    accountId: '',
    clientId: null,
    postLogoutRedirectUri: null,
    frontchannelUris,
  });
  return {
    response: {
      iframe_url: `${publicUrl}/connect/logout/frontchannel?logoutId=${encodeURIComponent(frameId)}`,
      post_logout_redirect_uri: null,
    },
    endedProviderSession: true,
  };
}
