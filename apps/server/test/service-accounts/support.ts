import * as oidcClient from 'openid-client';
import { expect } from 'vitest';
import { SERVICE_ACCOUNT_SCOPE } from '@partner-portal/contracts';
import { HttpClient, type HttpResponse, type RequestOptions } from '../support/http.js';

/**
 * Service accounts as the provider's applications use them (docs/integrations.md, "Service
 * accounts"): made through the API by a person, then a real relying-party library (openid-client 6)
 * takes a token with the client_credentials grant, and the application calls /api with it as a
 * bearer token, with no cookie and no X-CSRF.
 */

export interface CreatedAccount {
  id: string;
  client_id: string;
  client_secret: string;
}

/** Create a service account through the API as `by` (a signed-in person); expects 201. */
export async function createAccount(
  by: HttpClient,
  organizationId: string,
  body: { name: string; user_manager?: boolean; organization_manager?: boolean },
): Promise<CreatedAccount> {
  const res = await by.post<CreatedAccount>(`/api/organizations/${organizationId}/service-accounts`, body);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** The provider's configuration for a service account, discovered as an application would, authenticating as `how` says. */
export async function discoverAs(
  issuer: string,
  account: Pick<CreatedAccount, 'client_id' | 'client_secret'>,
  how: 'basic' | 'post' = 'basic',
): Promise<oidcClient.Configuration> {
  const auth = how === 'basic' ? oidcClient.ClientSecretBasic(account.client_secret) : oidcClient.ClientSecretPost(account.client_secret);
  return oidcClient.discovery(new URL(issuer), account.client_id, undefined, auth, { execute: [oidcClient.allowInsecureRequests] });
}

/** A bearer token of the account from POST /connect/token (client_credentials, scope partner_portal_api). */
export async function tokenOf(
  issuer: string,
  account: Pick<CreatedAccount, 'client_id' | 'client_secret'>,
  how: 'basic' | 'post' = 'basic',
): Promise<string> {
  const config = await discoverAs(issuer, account, how);
  const tokens = await oidcClient.clientCredentialsGrant(config, { scope: SERVICE_ACCOUNT_SCOPE });
  expect(tokens.token_type.toLowerCase()).toBe('bearer');
  expect(tokens.scope).toBe(SERVICE_ACCOUNT_SCOPE);
  return tokens.access_token;
}

/** An application calling /api with a bearer token: no cookie jar entries, no X-CSRF. */
export class BearerClient {
  private readonly http: HttpClient;

  constructor(
    baseUrl: string,
    public token: string,
  ) {
    this.http = new HttpClient(baseUrl);
  }

  request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<HttpResponse<T>> {
    this.http.cookies.clear();
    return this.http.request<T>(method, path, {
      csrf: false,
      ...options,
      headers: { authorization: `Bearer ${this.token}`, ...options.headers },
    });
  }

  get<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('GET', path, options);
  }
  post<T = any>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('POST', path, { ...options, body });
  }
  put<T = any>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('PUT', path, { ...options, body });
  }
  patch<T = any>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('PATCH', path, { ...options, body });
  }
  delete<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('DELETE', path, options);
  }
}

/** The OAuth error of a refused grant as openid-client reports it: in the body, or in the WWW-Authenticate challenge of a 401. */
export function grantError(err: unknown): string {
  const e = err as { error?: string; cause?: { parameters?: { error?: string } }[] };
  return e.error ?? e.cause?.[0]?.parameters?.error ?? String(err);
}

/** The translation key of a problem answer. */
export function keyOf(res: HttpResponse): string | undefined {
  return (res.body as { i18NTranslationKey?: string } | undefined)?.i18NTranslationKey;
}
