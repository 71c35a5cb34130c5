import type { AdapterConstructor } from 'oidc-provider';
import { newSecret } from '../http/session.js';

/**
 * Short-lived records of the portal's own login and logout steps, kept beside the provider's in
 * oidc_payloads (so the same clean-up and the same multi-instance storage apply):
 * - PortalError: an authorization error shown by /error?errorId= or /login?loginError=
 * - PortalLogout: a pending RP-initiated logout, shown by /logout?logoutId=
 * - ExternalLogin: state, nonce and PKCE verifier of a login at an upstream identity provider (a
 *   single sign-on connection or the EXTERNAL_IDP_* provider), and what the callback checks
 */
export interface ErrorRecord {
  error: string;
  error_description: string | null;
  request_id: string | null;
  client_id: string | null;
  redirect_uri: string | null;
  response_mode: string | null;
  ui_locales: string | null;
  display_mode: string | null;
  /** the values the error's translation names (a single sign-on connection's name: {connection}) */
  params?: Record<string, string> | null;
}

export interface LogoutRecord {
  /** the provider's xsrf secret of this end-session request */
  xsrf: string;
  accountId: string;
  clientId: string | null;
  postLogoutRedirectUri: string | null;
  /** front-channel logout URLs of the session's clients that registered one (iss and sid added) */
  frontchannelUris: string[];
}

export interface ExternalLoginRecord {
  state: string;
  nonce: string;
  codeVerifier: string;
  returnUrl: string | null;
  invitationLogin: string | null;
  /** the provider: a connection's id, or 'external' (absent in records made before connections) */
  connectionId?: string;
  /** the address given at the e-mail step (login_hint), which the provider must confirm */
  email?: string | null;
  /** the web app's path to go to afterwards (no return URL) */
  returnPath?: string | null;
  /** a manager's test of the connection: nobody is signed in; the answer goes to returnPath */
  test?: { returnPath: string; userId: string } | null;
}

export class RecordStore<T extends object> {
  private readonly adapter;
  constructor(
    Adapter: AdapterConstructor,
    model: string,
    private readonly ttlSeconds: number,
  ) {
    this.adapter = new Adapter(model);
  }

  async create(value: T): Promise<string> {
    const id = newSecret();
    await this.adapter.upsert(id, { ...value } as never, this.ttlSeconds);
    return id;
  }

  async find(id: string | null | undefined): Promise<T | undefined> {
    if (!id || id.length > 200) return undefined;
    return ((await this.adapter.find(id)) ?? undefined) as T | undefined;
  }

  async destroy(id: string): Promise<void> {
    await this.adapter.destroy(id);
  }
}
