import * as client from 'openid-client';
import type { Config } from '../config.js';

/**
 * The one upstream OpenID Connect identity provider (EXTERNAL_IDP_*), reached with openid-client:
 * discovered from its issuer on first use, authorization code with state, nonce and PKCE (S256).
 */
export const EXTERNAL_IDP_ID = 'external';
export const EXTERNAL_CALLBACK_PATH = '/api/identity/login-external-callback';

export interface UpstreamIdentity {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  givenName: string | null;
  familyName: string | null;
}

export class UpstreamIdp {
  private configuration: Promise<client.Configuration> | null = null;

  constructor(
    private readonly settings: NonNullable<Config['externalIdp']>,
    private readonly publicUrl: string,
  ) {}

  get name(): string {
    return this.settings.name;
  }

  get redirectUri(): string {
    return `${this.publicUrl}${EXTERNAL_CALLBACK_PATH}`;
  }

  /** Whether an e-mail address belongs to a domain that logs in upstream. */
  ownsEmail(email: string): boolean {
    const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
    return this.settings.emailDomains.includes(domain);
  }

  private discover(): Promise<client.Configuration> {
    if (!this.configuration) {
      const issuer = new URL(this.settings.issuer);
      this.configuration = client
        .discovery(
          issuer,
          this.settings.clientId,
          undefined,
          this.settings.clientSecret ? client.ClientSecretBasic(this.settings.clientSecret) : client.None(),
          issuer.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : undefined,
        )
        .catch((err: unknown) => {
          this.configuration = null; // try again next time
          throw err;
        });
    }
    return this.configuration;
  }

  /** The upstream authorization URL and the secrets to keep until the callback. */
  async start(loginHint?: string): Promise<{ url: string; state: string; nonce: string; codeVerifier: string }> {
    const configuration = await this.discover();
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
      ...(loginHint ? { login_hint: loginHint } : {}),
    });
    return { url: url.toString(), state, nonce, codeVerifier };
  }

  /** Redeem the callback (checks state, nonce, PKCE, the ID token); returns who signed in. */
  async finish(callbackUrl: URL, expected: { state: string; nonce: string; codeVerifier: string }): Promise<UpstreamIdentity> {
    const configuration = await this.discover();
    const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
      pkceCodeVerifier: expected.codeVerifier,
      expectedState: expected.state,
      expectedNonce: expected.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims()!;
    let email = typeof claims.email === 'string' ? claims.email : null;
    let emailVerified = claims.email_verified === true;
    let givenName = typeof claims.given_name === 'string' ? claims.given_name : null;
    let familyName = typeof claims.family_name === 'string' ? claims.family_name : null;
    if (!email) {
      const info = await client.fetchUserInfo(configuration, tokens.access_token, claims.sub);
      email = typeof info.email === 'string' ? info.email : null;
      emailVerified = info.email_verified === true;
      givenName ??= typeof info.given_name === 'string' ? info.given_name : null;
      familyName ??= typeof info.family_name === 'string' ? info.family_name : null;
    }
    return { subject: claims.sub, email, emailVerified, givenName, familyName };
  }
}
