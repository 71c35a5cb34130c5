import { connect } from 'node:net';
import * as oidcClient from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { closeServices, createLogger, createServices } from '../../src/main.js';
import type { Services } from '../../src/services.js';
import { needsPostgres } from '../support/needs.js';
import { freePort, startPortalWith, type TestPortal } from '../support/portal.js';
import { buildFixture, type Fixture } from '../organizations/fixtures.js';
import { BearerClient, createAccount, discoverAs, grantError, keyOf, tokenOf } from './support.js';

/**
 * The edges of service accounts' bearer tokens: the general limit counts per account (one account
 * at its limit, another still works); no Authorization header, however malformed, gives a 5xx;
 * and a deletion on one instance ends the account's tokens on another at once.
 */
const PER_ACCOUNT = 5;
let portal: TestPortal;
let f: Fixture;

beforeAll(
  async () => ({ portal, built: f } = await startPortalWith(buildFixture, { RATE_LIMIT_SERVICE_ACCOUNT_MAX: String(PER_ACCOUNT) })),
);
afterAll(() => portal?.close());

describe('the general limit of a service account', () => {
  it('counts per account: 429 with Retry-After for one, while another account and the people still work', async () => {
    const busy = await createAccount(f.userMgrA.client, f.tree.a.id, { name: 'Busy', user_manager: true });
    const first = new BearerClient(portal.url, await tokenOf(portal.url, busy));
    const again = new BearerClient(portal.url, await tokenOf(portal.url, busy));
    const second = new BearerClient(
      portal.url,
      await tokenOf(portal.url, await createAccount(f.userMgrA.client, f.tree.a.id, { name: 'Quiet', user_manager: true })),
    );
    const statuses: number[] = [];
    for (let i = 0; i < PER_ACCOUNT + 2; i++) statuses.push((await first.get(`/api/organizations/${f.tree.a.id}`)).status);
    expect(statuses.slice(0, PER_ACCOUNT)).toEqual(Array(PER_ACCOUNT).fill(200));
    expect(statuses.slice(PER_ACCOUNT)).toEqual([429, 429]);
    const limited = await first.get(`/api/organizations/${f.tree.a.id}`);
    expect(keyOf(limited)).toBe('too_many_requests');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    // a second token of the same account shares its allowance
    expect((await again.get(`/api/organizations/${f.tree.a.id}`)).status).toBe(429);

    expect((await second.get(`/api/organizations/${f.tree.a.id}`)).status).toBe(200);
    expect((await f.userMgrA.client.get(`/api/organizations/${f.tree.a.id}`)).status).toBe(200);
  });
});

describe('malformed Authorization headers on /api', () => {
  const path = () => `/api/organizations/${f.tree.a.id}`;

  it('answer a problem, never a 5xx: 401 for every Bearer header, the usual checks for other schemes', async () => {
    const bearerHeaders = [
      'Bearer',
      'Bearer ',
      'bearer    ',
      'Bearer a b',
      'Bearer "quoted"',
      'Bearer ===',
      `Bearer ${'a'.repeat(600)}`,
      'Bearer \u00e9\u00e8',
      'Bearer\tabc',
      'BEARER abc',
      'Bearer abc,Bearer def',
      'Bearer %00',
    ];
    for (const authorization of bearerHeaders) {
      const res = await fetch(`${portal.url}${path()}`, { headers: { authorization } });
      expect(res.status, authorization).toBe(401);
      expect(((await res.json()) as { i18NTranslationKey: string }).i18NTranslationKey, authorization).toBe('invalid_bearer_token');
    }
    // not the Bearer scheme: an anonymous call as before (403 without X-CSRF, 401 with it)
    for (const authorization of ['Basic dXNlcjpwYXNz', 'Bearerabc', 'Token abc', 'x']) {
      const withoutHeader = await fetch(`${portal.url}${path()}`, { headers: { authorization } });
      expect(withoutHeader.status, authorization).toBe(403);
      const withHeader = await fetch(`${portal.url}${path()}`, { headers: { authorization, 'x-csrf': '1' } });
      expect(withHeader.status, authorization).toBe(401);
    }
  });

  it('answers raw requests with odd bytes and repeated headers without a 5xx', async () => {
    const raw = (head: string) =>
      new Promise<string>((resolve, reject) => {
        const url = new URL(portal.url);
        // written, not ended: the answer comes after the bearer check's lookups, and Connection: close ends it
        const socket = connect(Number(url.port), url.hostname, () =>
          socket.write(Buffer.from(`GET ${path()} HTTP/1.1\r\nHost: ${url.host}\r\n${head}\r\n`, 'latin1')),
        );
        let data = '';
        socket.on('data', (chunk: Buffer) => (data += chunk.toString('latin1')));
        socket.on('end', () => resolve(data));
        socket.on('error', reject);
      });
    const answers = [
      await raw('Authorization: Bearer \xff\xfe\r\nConnection: close\r\n'),
      await raw('Authorization: Bearer abc\r\nAuthorization: Bearer def\r\nConnection: close\r\n'),
      await raw('Authorization: Bearer abc\r\nCookie: pp_session=\r\nConnection: close\r\n'),
      await raw(`Authorization: Bearer ${'x'.repeat(20_000)}\r\nConnection: close\r\n`),
    ];
    for (const answer of answers) {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
      expect(status, answer.slice(0, 80)).toBeGreaterThanOrEqual(400);
      expect(status, answer.slice(0, 80)).toBeLessThan(500);
    }
  });

  it('the token endpoint answers malformed client authentication without a 5xx', async () => {
    const account = await createAccount(f.userMgrA.client, f.tree.a.id, { name: 'Edges', user_manager: true });
    const bodies: [Record<string, string>, string][] = [
      [{ authorization: 'Basic %%%' }, 'grant_type=client_credentials'],
      [{ authorization: `Basic ${Buffer.from(`${account.client_id}:`).toString('base64')}` }, 'grant_type=client_credentials'],
      [{}, `grant_type=client_credentials&client_id=${account.client_id}&client_secret=${'x'.repeat(5000)}`],
      [{}, `grant_type=client_credentials&client_id=sa.not-a-uuid&client_secret=x`],
      [{}, `grant_type=client_credentials&client_id=${account.client_id}&client_secret=${account.client_secret}&client_secret=x`],
    ];
    for (const [headers, body] of bodies) {
      const res = await fetch(`${portal.url}/connect/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body,
      });
      expect(res.status, body.slice(0, 80)).toBeGreaterThanOrEqual(400);
      expect(res.status, body.slice(0, 80)).toBeLessThan(500);
    }
    const config = await discoverAs(portal.url, { client_id: account.client_id, client_secret: ' ' });
    const blank = await oidcClient.clientCredentialsGrant(config, { scope: 'partner_portal_api' }).then(() => 'granted', grantError);
    expect(blank).toBe('invalid_client');
  });
});

interface Instance {
  url: string;
  services: Services;
  app: FastifyInstance;
}

needsPostgres('service accounts across two instances', () => {
  let b: Instance;

  beforeAll(async () => {
    const port = await freePort();
    const c = portal.config;
    const config = loadConfig({
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: c.PUBLIC_URL!,
      DATABASE_URL: c.DATABASE_URL!,
      DATABASE_POOL_SIZE: '5',
      LOG_LEVEL: 'silent',
      RATE_LIMIT_MAX: '100000',
      RATE_LIMIT_SESSION_MAX: '100000',
    });
    const services = await createServices(config, createLogger(config));
    const app = await buildApp(services);
    await app.listen({ port, host: '127.0.0.1' });
    b = { url: `http://127.0.0.1:${port}`, services, app };
  });
  afterAll(async () => {
    await b?.app.close();
    if (b) await closeServices(b.services);
  });

  it('a deletion on one instance ends the tokens on the other at once, and the other gives the account no new token', async () => {
    const account = await createAccount(f.userMgrA.client, f.tree.a.id, { name: 'Everywhere', user_manager: true });
    const token = await tokenOf(portal.url, account);
    const onB = new BearerClient(b.url, token);
    expect((await onB.get(`/api/organizations/${f.tree.a.id}`)).status).toBe(200);
    // b has the account's client in its cache: it gave it a token
    const tokenFromB = await fetch(`${b.url}/connect/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${account.client_id}:${account.client_secret}`).toString('base64')}`,
      },
      body: 'grant_type=client_credentials&scope=partner_portal_api',
    });
    expect(tokenFromB.status).toBe(200);

    expect((await f.userMgrA.client.delete(`/api/organizations/${f.tree.a.id}/service-accounts/${account.id}`)).status).toBe(204);
    const refused = await onB.get(`/api/organizations/${f.tree.a.id}`);
    expect(refused.status).toBe(401);

    const deadline = Date.now() + 2000;
    let status = 0;
    while (Date.now() < deadline) {
      const res = await fetch(`${b.url}/connect/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${account.client_id}:${account.client_secret}`).toString('base64')}`,
        },
        body: 'grant_type=client_credentials&scope=partner_portal_api',
      });
      status = res.status;
      if (status === 401) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(401);
  });
});
