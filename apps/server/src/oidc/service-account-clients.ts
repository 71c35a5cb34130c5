import { timingSafeEqual } from 'node:crypto';
import Provider, { errors } from 'oidc-provider';
import { isServiceAccountClientId, SERVICE_ACCOUNT_SCOPE } from '@partner-portal/contracts';
import type { Queryable } from '../db/client.js';
import type { BearerTokenFacts } from '../http/bearer.js';
import { hashSecret } from '../http/session.js';
import { serviceAccountClientRow } from './queries.js';

/**
 * Service accounts as clients of the provider (docs/integrations.md, "Service accounts"). An
 * account (modules/service-accounts) is a confidential client of the client_credentials grant only,
 * with the one scope partner_portal_api; its client id is `sa.<account id>` (a dot, which no id of
 * Dynamic Client Registration holds), and the adapter (adapter.ts) finds it in service_accounts.
 * Its secret is kept only as its SHA-256 (256 random bits need no slow hash): the client's
 * `client_secret` is that hash, and oidc-provider's Client#compareClientSecret (the library's
 * documented hook for hashed secrets) is made to hash what the client sends before the
 * constant-time comparison. The hash is never a key: these clients use no HS* algorithm.
 */

/** The client metadata of a service account, or undefined when there is none. */
export async function serviceAccountClient(db: Queryable, clientId: string): Promise<Record<string, unknown> | undefined> {
  const row = await serviceAccountClientRow(db, clientId);
  if (!row) return undefined;
  return {
    client_id: row.client_id,
    client_secret: row.secret_hash,
    client_name: row.name,
    grant_types: ['client_credentials'],
    response_types: [],
    redirect_uris: [],
    token_endpoint_auth_method: 'client_secret_basic',
    scope: SERVICE_ACCOUNT_SCOPE,
  };
}

/** Whether a secret sent by a client is the one whose hash is kept. */
export function secretMatchesHash(sent: unknown, keptHash: unknown): boolean {
  if (typeof sent !== 'string' || typeof keptHash !== 'string' || sent.length > 1000) return false;
  const a = Buffer.from(hashSecret(sent));
  const b = Buffer.from(keptHash);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Make the provider compare a service account's secret with its kept hash; other clients keep the library's comparison. */
export function compareHashedServiceAccountSecrets(provider: Provider): void {
  const prototype = provider.Client.prototype;
  const libraryCompare = Object.getOwnPropertyDescriptor(prototype, 'compareClientSecret')?.value as unknown;
  if (typeof libraryCompare !== 'function')
    throw new Error('oidc-provider has no Client#compareClientSecret to hash service accounts’ secrets');
  prototype.compareClientSecret = function compareClientSecret(this: typeof prototype, actual: string) {
    return isServiceAccountClientId(this.clientId)
      ? secretMatchesHash(actual, this.clientSecret)
      : (libraryCompare as typeof prototype.compareClientSecret).call(this, actual);
  };
}

/**
 * The scope of a service account's token (docs/integrations.md, "Getting a token"): always
 * partner_portal_api. A request that names no scope gets it (RFC 6749 §3.3, the pre-defined
 * default); one that names any other scope is refused with invalid_scope, rather than answered with
 * a token that /api would refuse (the library drops scopes it does not know without a word). The
 * token is given its scope as oidc-provider saves it at the token endpoint, before it is answered.
 */
export function scopeServiceAccountTokens(provider: Provider): void {
  const prototype = provider.ClientCredentials.prototype;
  const librarySave = Object.getOwnPropertyDescriptor(provider.BaseToken.prototype, 'save')?.value as unknown;
  if (typeof librarySave !== 'function')
    throw new Error('oidc-provider has no BaseToken#save to give service accounts’ tokens their scope');
  prototype.save = async function save(this: typeof prototype) {
    const ctx = Provider.ctx;
    if (ctx?.oidc.route === 'token' && isServiceAccountClientId(this.clientId)) {
      // the scope as sent: the library's params keep only the scopes it knows by this time
      const sent = ctx.oidc.body?.scope;
      const asked = typeof sent === 'string' ? sent.split(' ').filter(Boolean) : [];
      const other = asked.find((scope) => scope !== SERVICE_ACCOUNT_SCOPE);
      if (other !== undefined) throw new errors.InvalidScope('requested scope is not allowed', other);
      this.scope = SERVICE_ACCOUNT_SCOPE;
    }
    return (librarySave as typeof prototype.save).call(this);
  };
}

/**
 * A live client-credentials token of the provider as the bearer check of /api reads it
 * (http/bearer.ts): found and verified (expiry included) by oidc-provider's ClientCredentials model.
 */
export async function clientCredentialsToken(provider: Provider, value: string): Promise<BearerTokenFacts | null> {
  const token = await provider.ClientCredentials.find(value);
  if (!token?.clientId || token.isExpired) return null;
  return {
    clientId: token.clientId,
    scopes: new Set((token.scope ?? '').split(' ').filter(Boolean)),
    senderConstrained: token.isSenderConstrained(),
  };
}
