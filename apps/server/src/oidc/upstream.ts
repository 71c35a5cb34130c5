import type * as OpenIdClient from 'openid-client';
import type { OutboundFetch } from '../http/outbound.js';

/**
 * An upstream OpenID Connect identity provider, reached with openid-client as a relying party:
 * discovered from its issuer on first use, authorization code with state, nonce and PKCE (S256),
 * every call through the outbound guard (http/outbound.ts). One per single sign-on connection
 * (modules/sso/providers.ts keeps them), and one for the EXTERNAL_IDP_* variables, whose id is
 * 'external' (users.external_idp of its accounts).
 */
export const EXTERNAL_IDP_ID = 'external';
export const EXTERNAL_CALLBACK_PATH = '/api/identity/login-external-callback';
/** How long a call to an upstream provider may take (discovery, the token request, userinfo). */
export const UPSTREAM_TIMEOUT_SECONDS = 10;

export interface UpstreamSettings {
  /** 'external', or the connection's id */
  id: string;
  name: string;
  issuer: string;
  clientId: string;
  /** none: a public client with PKCE */
  clientSecret: string | null | undefined;
  /** EXTERNAL_IDP_EMAIL_DOMAINS (the connections' domains are their rows') */
  emailDomains?: readonly string[];
}

export interface UpstreamIdentity {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  givenName: string | null;
  familyName: string | null;
  /** the ID token's authentication methods (RFC 8176), e.g. ['pwd', 'mfa'] */
  amr: string[];
}

/** What a sign-in keeps between the challenge and the callback. */
export interface UpstreamChallenge {
  url: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** openid-client, loaded at the first sign-in through a dealer's identity provider, not held by every portal from its start. */
const openIdClient = () => import('openid-client');

const text = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 ? value : null);

export class UpstreamIdp {
  private configuration: Promise<OpenIdClient.Configuration> | null = null;

  constructor(
    private readonly settings: UpstreamSettings,
    private readonly publicUrl: string,
    private readonly fetch: OutboundFetch,
  ) {}

  get id(): string {
    return this.settings.id;
  }

  get name(): string {
    return this.settings.name;
  }

  get redirectUri(): string {
    return `${this.publicUrl}${EXTERNAL_CALLBACK_PATH}`;
  }

  /** Whether an e-mail address belongs to EXTERNAL_IDP_EMAIL_DOMAINS (connections route by their rows: modules/sso/routing.ts). */
  ownsEmail(email: string): boolean {
    const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
    return (this.settings.emailDomains ?? []).includes(domain);
  }

  /** The provider's metadata, discovered once (again after a failure); rejects when it cannot be reached or is no OpenID provider. */
  discover(): Promise<OpenIdClient.Configuration> {
    if (!this.configuration) {
      const issuer = new URL(this.settings.issuer);
      const { clientSecret } = this.settings;
      this.configuration = openIdClient()
        .then((client) =>
          client.discovery(
            issuer,
            this.settings.clientId,
            undefined,
            clientSecret ? client.ClientSecretBasic(clientSecret) : client.None(),
            {
              // openid-client's options are a RequestInit, typed by its own declarations, which differ
              // from the server's (no DOM lib) and not from the lint's view of them
              // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
              [client.customFetch]: (url, options) => this.fetch(url, options as unknown as RequestInit),
              timeout: UPSTREAM_TIMEOUT_SECONDS,
              ...(issuer.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : {}),
            },
          ),
        )
        .catch((err: unknown) => {
          this.configuration = null; // try again next time
          throw err;
        });
    }
    return this.configuration;
  }

  /** The upstream authorization URL and the secrets to keep until the callback. */
  async start(options: { loginHint?: string | null | undefined; prompt?: 'login' } = {}): Promise<UpstreamChallenge> {
    const [configuration, client] = await Promise.all([this.discover(), openIdClient()]);
    const codeVerifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: this.redirectUri,
      scope: 'openid email profile',
      response_type: 'code',
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
      ...(options.loginHint ? { login_hint: options.loginHint } : {}),
      ...(options.prompt ? { prompt: options.prompt } : {}),
    });
    return { url: url.toString(), state, nonce, codeVerifier };
  }

  /** Redeem the callback (checks state, nonce, PKCE, the ID token); returns who signed in. */
  async finish(callbackUrl: URL, expected: { state: string; nonce: string; codeVerifier: string }): Promise<UpstreamIdentity> {
    const [configuration, client] = await Promise.all([this.discover(), openIdClient()]);
    const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
      pkceCodeVerifier: expected.codeVerifier,
      expectedState: expected.state,
      expectedNonce: expected.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims()!;
    let email = text(claims.email);
    let emailVerified = claims.email_verified === true;
    let givenName = text(claims.given_name);
    let familyName = text(claims.family_name);
    if (!email) {
      const info = await client.fetchUserInfo(configuration, tokens.access_token, claims.sub);
      email = text(info.email);
      emailVerified = info.email_verified === true;
      givenName ??= text(info.given_name);
      familyName ??= text(info.family_name);
    }
    const amr = Array.isArray(claims.amr) ? claims.amr.filter((m): m is string => typeof m === 'string') : [];
    return { subject: claims.sub, email, emailVerified, givenName, familyName, amr };
  }
}
