import { decodeProtectedHeader } from 'jose';
import * as oidcClient from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLUSH_ONE_SQL, REFRESH_TOKEN_WITH_GRANT_SQL } from '../../src/oidc/payload-queries.js';
import { startPortal, type TestPortal } from '../support/portal.js';
import { codeFlow, DCR_TOKEN, discover, REDIRECT, registerClient } from './support.js';

/**
 * One refresh_token grant: the SQL statements it runs (counted at the portal's database object),
 * and ES256 ID tokens for a client that registers them, verified by openid-client against the JWKS.
 */
let portal: TestPortal;

beforeAll(async () => (portal = await startPortal({ DCR_INITIAL_ACCESS_TOKEN: DCR_TOKEN, OIDC_SIGNING_ALGS: 'RS256,ES256' })));
afterAll(() => portal?.close());

async function tokensFor(config: oidcClient.Configuration) {
  const browser = await portal.sessionFor(portal.adminUserId);
  return codeFlow(config, browser, REDIRECT, {
    scope: 'openid email profile organization rights offline_access',
    prompt: 'consent',
  });
}

/**
 * The statements run while fn runs, without the rate limit's shared counter: it writes its hits in
 * the background every 250 ms (apps/server/src/http/rate-limit.ts), whatever request is
 * under way when its timer fires.
 */
async function statementsOf(fn: () => Promise<unknown>): Promise<string[]> {
  const db = portal.services.db;
  const original = db.query.bind(db);
  const seen: string[] = [];
  db.query = (text: string, params?: readonly unknown[]) => {
    if (!/\brate_limits\b/.test(text)) seen.push(text.replace(/\s+/g, ' ').trim().slice(0, 120));
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
  it('runs 2 statements: the token with its grant, then its writes in one (client and account from the instance caches)', async () => {
    const config = await discover(portal, (await registerClient(portal)).client_id);
    // a first grant fills the instance caches (the sign-in's own change of the user may still be
    // on its way to this instance's listener and drop the account once)
    const tokens = await oidcClient.refreshTokenGrant(config, (await tokensFor(config)).refresh_token!);
    let refreshed: Awaited<ReturnType<typeof oidcClient.refreshTokenGrant>> | undefined;
    const statements = await statementsOf(async () => {
      refreshed = await oidcClient.refreshTokenGrant(config, tokens.refresh_token!);
    });
    expect(refreshed!.access_token).toBeTruthy();
    expect(decodeProtectedHeader(refreshed!.id_token!).alg).toBe('RS256');
    expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(2);
    // the grant's writes were stored: the new refresh token works, and so does its access token
    const again = await oidcClient.refreshTokenGrant(config, refreshed!.refresh_token!);
    expect(again.access_token).toBeTruthy();
    const info = await oidcClient.fetchUserInfo(config, again.access_token, portal.adminUserId);
    expect(info.sub).toBe(portal.adminUserId);
  });

  it('keeps both statements lookups by key when each connection plans them once, whatever the size of oidc_payloads', async () => {
    // the statements are prepared once per connection, and PostgreSQL then reuses one plan made
    // without the values (a generic plan). Made on a table of a few hundred rows, that plan must
    // still look the tokens up by key: the table grows by two rows a grant.
    const plans = await portal.services.db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO oidc_payloads (model, id, payload, grant_id, expires_at)
         SELECT (ARRAY['RefreshToken', 'AccessToken', 'Grant'])[1 + g % 3], 'plan-' || g,
                jsonb_build_object('grantId', 'plan-' || (g - g % 3 + 2), 'filler', repeat('x', 600)),
                'plan-' || (g - g % 3 + 2), now() + interval '1 hour'
         FROM generate_series(1, 400) g`,
      );
      await tx.query('ANALYZE oidc_payloads');
      await tx.query('SET LOCAL plan_cache_mode = force_generic_plan');
      const explain = async (sql: string, args: string) => {
        await tx.query(`PREPARE plan_check AS ${sql}`);
        const { rows } = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE plan_check(${args})`);
        await tx.query('DEALLOCATE plan_check');
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      };
      const result = {
        lookup: await explain(REFRESH_TOKEN_WITH_GRANT_SQL, "'plan-1'"),
        writes: await explain(FLUSH_ONE_SQL, "'RefreshToken', 'plan-1', '{}', '{}', '{}', '{}', '{}'"),
      };
      await tx.query("DELETE FROM oidc_payloads WHERE id LIKE 'plan-%'");
      return result;
    });
    for (const plan of [plans.lookup, plans.writes]) {
      expect(plan).toContain('oidc_payloads_pkey');
      expect(plan).not.toMatch(/Seq Scan on oidc_payloads/);
    }
  });

  it('gives tokens to one request only when several present the same refresh token at once, and revokes the grant', async () => {
    const registered = await registerClient(portal);
    const config = await discover(portal, registered.client_id);
    const tokens = await tokensFor(config);
    // a public client (token_endpoint_auth_method none), as registerClient makes it
    const send = (refreshToken: string) =>
      fetch(`${portal.url}/connect/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: registered.client_id }),
      }).then(async (res) => ({ status: res.status, body: (await res.json()) as Record<string, string> }));
    const answers = await Promise.all(Array.from({ length: 8 }, () => send(tokens.refresh_token!)));
    const granted = answers.filter((a) => a.status === 200);
    expect(granted.length, JSON.stringify(answers.map((a) => a.status))).toBe(1);
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect(refused).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    }
    // a reused refresh token revokes its grant: the winner's new refresh token no longer works
    expect((await send(granted[0]!.body.refresh_token!)).body.error).toBe('invalid_grant');
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
