import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startDealerIdp, type DealerIdp } from '../support/dealer-idp.js';
import { NO_LOGIN_LIMITS, startPortal, type TestPortal } from '../support/portal.js';
import { buildDealerTree, createConnection, createPerson, verifyDomain, type Person } from './support.js';

/**
 * The outbound guard in production (http/outbound.ts; the operating contract: outgoing calls to
 * loopback and private addresses are refused when NODE_ENV=production, unless
 * OUTBOUND_ALLOW_PRIVATE_NETWORKS=true): a connection's discovery at 127.0.0.1 is refused, and
 * allowed when the operator says so. IPv6 literals that embed a loopback or private IPv4 address
 * are refused as that address is, and a redirect is never followed: its 3xx is the answer.
 */
let idp: DealerIdp;

beforeAll(async () => {
  idp = await startDealerIdp();
});
afterAll(() => idp?.close());

async function portalWithManager(env: Record<string, string>): Promise<{ portal: TestPortal; manager: Person; organizationId: string }> {
  // the same upstream provider, at 127.0.0.1, for both portals: only the guard's setting differs
  const portal = await startPortal({
    ...NO_LOGIN_LIMITS,
    NODE_ENV: 'production',
    EXTERNAL_IDP_ISSUER: idp.issuer,
    EXTERNAL_IDP_CLIENT_ID: 'portal-external',
    ...env,
  });
  const tree = await buildDealerTree(portal);
  await verifyDomain(portal, tree.dealer.id, 'guarded.example');
  const manager = await createPerson(portal, tree.dealer, 'chief@guarded.example', { manager: 'organization' });
  return { portal, manager, organizationId: tree.dealer.id };
}

const DCR_TOKEN = 'outbound-guard-initial-access-token';

const body = (issuer: string) => ({ name: 'Guarded', issuer, client_id: 'portal', domains: ['guarded.example'] });

describe('outgoing calls in production', () => {
  let guarded: Awaited<ReturnType<typeof portalWithManager>>;
  let allowed: Awaited<ReturnType<typeof portalWithManager>>;
  beforeAll(async () => {
    guarded = await portalWithManager({ DCR_INITIAL_ACCESS_TOKEN: DCR_TOKEN });
    allowed = await portalWithManager({ OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' });
  });
  afterAll(async () => {
    await guarded?.portal.close();
    await allowed?.portal.close();
  });

  const challenge = (portal: TestPortal) => portal.client().get('/api/identity/challenge-external-login');

  it('refuses to reach a provider on a loopback address', async () => {
    // the EXTERNAL_IDP_* provider at 127.0.0.1: its discovery is refused, the login page says so
    const refused = await challenge(guarded.portal);
    expect(refused.status).toBe(303);
    expect(refused.headers.get('location')).toMatch(/^\/login\?loginError=/);
    // a connection: an issuer on a loopback or link-local address is not discovered
    for (const issuer of ['https://127.0.0.1:1', 'https://localhost:1', 'https://169.254.169.254']) {
      const res = await createConnection(guarded.manager.client, guarded.organizationId, body(issuer), 409);
      expect(res.body.i18NTranslationKey, issuer).toBe('sso_discovery_failed');
    }
    // and a connection's issuer is https in production
    const http = await createConnection(guarded.manager.client, guarded.organizationId, body(idp.issuer), 400);
    expect(http.body.errors.issuer[0].translation_key).toBe('invalid_issuer');
  });

  it('reaches it with OUTBOUND_ALLOW_PRIVATE_NETWORKS=true', async () => {
    const reached = await challenge(allowed.portal);
    expect(reached.status).toBe(303);
    expect(reached.headers.get('location')!.startsWith(`${idp.issuer}/`)).toBe(true);
    const res = await createConnection(allowed.manager.client, allowed.organizationId, body(idp.issuer));
    expect(res.body.id).toBeTruthy();
  });
});

/** IPv6 literals whose embedded IPv4 address is 127.0.0.1 (http/outbound.ts judges that address). */
const EMBEDDING_LOOPBACK = [
  'http://[::127.0.0.1]/', // IPv4-compatible
  'http://[::ffff:7f00:1]/', // IPv4-mapped
  'http://[64:ff9b::7f00:1]/', // NAT64 (RFC 6052)
  'http://[2002:7f00:1::]/', // 6to4
  'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', // Teredo: client 127.0.0.1 (the last 32 bits XOR 0xffffffff)
];

/**
 * A host on the public internet that redirects to a server on loopback: the server counts the
 * requests that reach it; the public host (93.184.215.14) is played by a stand-in for the global
 * fetch, which every outgoing fetch of the portal (http/outbound.ts) calls in this process. It does
 * with its 302 what Node's fetch does with one: hands it back (redirect: 'manual'), fails
 * ('error'), or follows it (the default), connecting to the IP literal it names without any lookup.
 */
async function publicHostRedirectingToLoopback(answer: string): Promise<{ origin: string; reached: string[]; close(): Promise<void> }> {
  const reached: string[] = [];
  const server: Server = createServer((req, res) => {
    reached.push(req.url ?? '/');
    res.writeHead(200, { 'content-type': 'application/json' }).end(answer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const loopback = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const realFetch = globalThis.fetch;
  vi.stubGlobal('fetch', async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input);
    if (url.hostname !== '93.184.215.14') return realFetch(input, init);
    const location = `${loopback}${url.pathname}`;
    if (init?.redirect === 'manual') return new Response(null, { status: 302, headers: { location } });
    if (init?.redirect === 'error') throw new TypeError('fetch failed: unexpected redirect');
    return realFetch(location, init);
  });
  return { origin: 'https://93.184.215.14', reached, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('outgoing calls in production: IPv6 literals and redirects', () => {
  let guarded: Awaited<ReturnType<typeof portalWithManager>>;
  beforeAll(async () => {
    guarded = await portalWithManager({ DCR_INITIAL_ACCESS_TOKEN: DCR_TOKEN });
  });
  afterAll(() => guarded?.portal.close());
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('refuses a webhook whose URL is an IPv6 literal embedding a loopback address', async () => {
    const hooks = `/api/organizations/${guarded.organizationId}/webhooks`;
    for (const url of EMBEDDING_LOOPBACK) {
      const res = await guarded.manager.client.post(hooks, { url, events: ['*'] });
      expect(res.status, `${url} ${res.text}`).toBe(400);
      expect(res.body.errors, url).toMatchObject({ url: [{ translation_key: 'webhook_url_not_allowed' }] });
    }
    expect((await guarded.manager.client.get(hooks)).body).toEqual([]);
  });

  it('does not discover an issuer at such a literal', async () => {
    for (const url of EMBEDDING_LOOPBACK) {
      const issuer = url.replace(/^http:/, 'https:').replace(/\/$/, '');
      const res = await createConnection(guarded.manager.client, guarded.organizationId, body(issuer), 409);
      expect(res.body.i18NTranslationKey, issuer).toBe('sso_discovery_failed');
    }
  });

  it('fails the discovery of an issuer that redirects to loopback', async () => {
    const host = await publicHostRedirectingToLoopback('{}');
    try {
      const res = await createConnection(guarded.manager.client, guarded.organizationId, body(host.origin), 409);
      expect(res.body.i18NTranslationKey).toBe('sso_discovery_failed');
      expect(host.reached).toEqual([]);
    } finally {
      await host.close();
    }
  });

  it("does not follow a client's jwks_uri that redirects to loopback", async () => {
    const host = await publicHostRedirectingToLoopback('{"keys":[]}');
    try {
      const { portal } = guarded;
      const registered = await fetch(`${portal.url}/connect/dcr`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${DCR_TOKEN}` },
        body: JSON.stringify({
          redirect_uris: ['https://app.dealer.example/callback'],
          token_endpoint_auth_method: 'private_key_jwt',
          token_endpoint_auth_signing_alg: 'ES256',
          jwks_uri: `${host.origin}/jwks`,
        }),
      });
      expect(registered.status, await registered.clone().text()).toBe(201);
      const { client_id: clientId } = (await registered.json()) as { client_id: string };
      // a client assertion: the provider needs the client's keys (its jwks_uri) to check its signature
      const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const now = Math.floor(Date.now() / 1000);
      const assertion = [
        part({ alg: 'ES256', typ: 'JWT', kid: 'k1' }),
        part({
          iss: clientId,
          sub: clientId,
          aud: `${portal.url}/connect/token`,
          jti: randomBytes(8).toString('hex'),
          iat: now,
          exp: now + 60,
        }),
        randomBytes(64).toString('base64url'),
      ].join('.');
      const token = await fetch(`${portal.url}/connect/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: 'none',
          redirect_uri: 'https://app.dealer.example/callback',
          client_id: clientId,
          client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
          client_assertion: assertion,
        }),
      });
      expect(token.status, await token.clone().text()).toBe(401);
      expect(host.reached).toEqual([]);
    } finally {
      await host.close();
    }
  });
});
