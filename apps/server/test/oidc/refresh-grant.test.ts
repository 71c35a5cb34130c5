import { decodeProtectedHeader } from 'jose';
import * as oidcClient from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortal, type TestPortal } from '../support/portal.js';
import { DCR_TOKEN, discover, followUntil, registerClient, startAuthorization } from './support.js';

/**
 * One refresh_token grant: the SQL statements it runs (counted at the portal's database object),
 * and ES256 ID tokens for a client that registers them, verified by openid-client against the JWKS.
 */
let portal: TestPortal;
const REDIRECT = 'http://127.0.0.1:8123/callback';

beforeAll(async () => {
  portal = await startPortal({ DCR_INITIAL_ACCESS_TOKEN: DCR_TOKEN, OIDC_SIGNING_ALGS: 'RS256,ES256' });
});
afterAll(async () => {
  await portal?.close();
});

async function tokensFor(config: oidcClient.Configuration) {
  const browser = await portal.sessionFor(portal.adminUserId);
  const start = await startAuthorization(config, REDIRECT, {
    scope: 'openid email profile organization rights offline_access',
    prompt: 'consent',
  });
  const callback = await followUntil(browser, start.url.toString(), REDIRECT);
  return oidcClient.authorizationCodeGrant(config, new URL(callback), {
    pkceCodeVerifier: start.codeVerifier,
    expectedState: start.state,
    expectedNonce: start.nonce,
  });
}

/** The statements run while fn runs. */
async function statementsOf(fn: () => Promise<unknown>): Promise<string[]> {
  const db = portal.services.db;
  const original = db.query.bind(db);
  const seen: string[] = [];
  db.query = (text: string, params?: readonly unknown[]) => {
    seen.push(text.replace(/\s+/g, ' ').trim().slice(0, 120));
    return original(text, params);
  };
  try {
    await fn();
  } finally {
    db.query = original;
  }
  return seen;
}

describe('a refresh_token grant', () => {
  it('runs at most 4 statements (the client and the account come from the instance caches)', async () => {
    const config = await discover(portal, (await registerClient(portal)).client_id);
    const tokens = await tokensFor(config);
    let refreshed: Awaited<ReturnType<typeof oidcClient.refreshTokenGrant>> | undefined;
    const statements = await statementsOf(async () => {
      refreshed = await oidcClient.refreshTokenGrant(config, tokens.refresh_token!);
    });
    expect(refreshed!.access_token).toBeTruthy();
    expect(decodeProtectedHeader(refreshed!.id_token!).alg).toBe('RS256');
    expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(4);
  });
});

describe('ES256 ID tokens', () => {
  it('are signed for a client that registers id_token_signed_response_alg ES256, and verify with openid-client', async () => {
    const registered = await registerClient(portal, { id_token_signed_response_alg: 'ES256' });
    expect(registered.id_token_signed_response_alg).toBe('ES256');
    const config = await discover(portal, registered.client_id);
    const tokens = await tokensFor(config);
    const header = decodeProtectedHeader(tokens.id_token!);
    expect(header.alg).toBe('ES256');
    const jwks = (await portal.client().get('/connect/jwks')).body.keys as { kid: string; kty: string; crv?: string; d?: string }[];
    expect(jwks.find((k) => k.kid === header.kid)).toMatchObject({ kty: 'EC', crv: 'P-256' });
    expect(jwks.every((k) => k.d === undefined)).toBe(true);
    // openid-client checks the signature of the ID token of a refresh against the JWKS
    const refreshed = await oidcClient.refreshTokenGrant(config, tokens.refresh_token!);
    expect(decodeProtectedHeader(refreshed.id_token!).alg).toBe('ES256');
    expect(refreshed.claims()!.sub).toBe(portal.adminUserId);
    const info = await oidcClient.fetchUserInfo(config, refreshed.access_token, portal.adminUserId);
    expect(info.sub).toBe(portal.adminUserId);
  });

  it('leave the default RS256 to clients that register nothing', async () => {
    const config = await discover(portal, (await registerClient(portal)).client_id);
    expect(decodeProtectedHeader((await tokensFor(config)).id_token!).alg).toBe('RS256');
  });
});
