import { request as httpRequest } from 'node:http';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { startPortal, type TestPortal } from '../support/portal.js';
import { DCR_TOKEN, registerClient } from '../oidc/support.js';
import { buildWorld, uniqueEmail, type World } from './support/world.js';

/**
 * The findings of the penetration test about inputs (docs/security.md, "Threats and their tests"):
 * audit dates PostgreSQL cannot take, a bulk invitation file with a NUL byte, client metadata with
 * bad URIs at registration and update, and addresses taken from the Host and forwarding headers.
 */
const portal = await startPortal({ DCR_INITIAL_ACCESS_TOKEN: DCR_TOKEN });
const world = await buildWorld(portal);
afterAll(async () => {
  await portal.close();
});

describe('audit dates PostgreSQL cannot take', () => {
  it('GET /api/audit and /api/audit/export answer 400 invalid_date for year 0 and days out of range, never a 5xx', async () => {
    const client = await world.client('userManager');
    for (const path of ['/api/audit', '/api/audit/export']) {
      for (const [query, field] of [
        ['from=0000-01-01', 'from'],
        ['to=0000-01-01', 'to'],
        ['from=0000-02-29', 'from'],
        ['from=99999-01-01', 'from'],
        ['to=99999-12-31', 'to'],
        ['from=-0001-01-01', 'from'],
        ['from=0000-01-01&to=0000-01-02', 'from'],
      ] as const) {
        const res = await client.get(`${path}?${query}`);
        expect(res.status, `${path}?${query}: ${res.text}`).toBe(400);
        expect(res.body.i18NTranslationKey, `${path}?${query}`).toBe('validation_failed');
        expect(res.body.errors?.[field]?.[0]?.translation_key, `${path}?${query}: ${res.text}`).toBe('invalid_date');
      }
    }
    // the first and the last day PostgreSQL and the filter both take
    for (const path of ['/api/audit', '/api/audit/export'])
      expect((await client.get(`${path}?from=0001-01-01&to=9999-12-31`)).status, path).toBe(200);
  });
});

interface Counts {
  invitations: number;
  batches: number;
  audit: number;
  outbox: number;
  mails: number;
}

async function counts(organizationId: string): Promise<Counts> {
  const { rows } = await portal.services.db.query<Omit<Counts, 'mails'>>(
    `SELECT (SELECT count(*)::int FROM invitations WHERE organization_id = $1) AS invitations,
            (SELECT count(*)::int FROM invitation_batches WHERE organization_id = $1) AS batches,
            (SELECT count(*)::int FROM audit_log WHERE organization_id = $1) AS audit,
            (SELECT count(*)::int FROM outbox WHERE kind = 'email') AS outbox`,
    [organizationId],
  );
  return { ...rows[0]!, mails: portal.smtp.messages.length };
}

describe('bulk invitations with characters PostgreSQL or e-mail cannot take', () => {
  const ok = uniqueEmail('bulk-ok');
  const rows: { cells: string[]; outcome: string }[] = [
    { cells: [ok, 'Anna', 'Smit', 'en'], outcome: 'ok' },
    { cells: [uniqueEmail('nul-first'), 'An\0na', 'Smit', 'en'], outcome: 'invalid_name' },
    { cells: [uniqueEmail('nul-last'), 'Anna', 'Sm\0it', 'nl'], outcome: 'invalid_name' },
    { cells: [uniqueEmail('nul-mail').replace('@', '\0@'), 'Anna', 'Smit', 'de'], outcome: 'invalid_address' },
    { cells: [`${uniqueEmail('nul-end')}\0`, 'Anna', 'Smit', 'de'], outcome: 'invalid_address' },
    { cells: [uniqueEmail('nul-language'), 'Anna', 'Smit', 'e\0n'], outcome: 'invalid_language' },
    { cells: [uniqueEmail('tab'), 'Anna\tMaria', 'Smit', 'fr'], outcome: 'invalid_name' },
    { cells: [uniqueEmail('control'), 'Anna\u0007', 'Smit\u001B', 'es'], outcome: 'invalid_name' },
  ];
  const csv = ['email,first_name,last_name,language', ...rows.map((r) => r.cells.map((c) => `"${c}"`).join(','))].join('\n');
  const storable = (text: string) => !/\p{Cc}/u.test(text);

  it('the dry run marks each such row with its reason (no 5xx) and answers only storable text', async () => {
    const client = await world.client('userManager');
    const before = await counts(world.north.id);
    const res = await client.post(`/api/organizations/${world.north.id}/invitations/bulk/dry-run`, { csv });
    expect(res.status, res.text).toBe(200);
    expect(res.body.rows.map((r: { outcome: string }) => r.outcome)).toEqual(rows.map((r) => r.outcome));
    expect(res.body).toMatchObject({ total: rows.length, ok: 1, refused: rows.length - 1 });
    for (const row of res.body.rows)
      for (const cell of [row.email_address, row.first_name, row.last_name]) expect(storable(cell)).toBe(true);
    expect(await counts(world.north.id)).toEqual(before);
  });

  it('the sending invites the good row and stores the report with every row marked: invitation, batch, audit and e-mail all or none', async () => {
    const client = await world.client('userManager');
    const before = await counts(world.north.id);
    const res = await client.post(`/api/organizations/${world.north.id}/invitations/bulk`, { csv });
    expect(res.status, res.text).toBe(200);
    expect(res.body.rows.map((r: { outcome: string }) => r.outcome)).toEqual(rows.map((r) => (r.outcome === 'ok' ? 'sent' : r.outcome)));
    expect(res.body.batch_id).toMatch(/^[0-9a-f-]{36}$/);
    await portal.smtp.waitFor(ok);
    // one invitation, one batch, its two audit entries (invitation.create, invitation.bulk), one e-mail
    expect(await counts(world.north.id)).toEqual({
      invitations: before.invitations + 1,
      batches: before.batches + 1,
      audit: before.audit + 2,
      outbox: before.outbox + 1,
      mails: before.mails + 1,
    });
    const report = await client.get(`/api/invitations/batches/${res.body.batch_id}/report`);
    expect(report.status).toBe(200);
    const records = parse<Record<string, string>>(report.text, { bom: true, columns: true });
    expect(records.map((r) => r.outcome)).toEqual(rows.map((r) => (r.outcome === 'ok' ? 'sent' : r.outcome)));
  });

  it('a sending whose report cannot be stored leaves nothing behind: no invitation, no audit entry, no e-mail', async () => {
    const org = await world.fresh.organization();
    const db = portal.services.db;
    // a fault of the database itself, for this organization only: its batch row is refused
    await db.query(`CREATE FUNCTION test_refuse_batch() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'the test refuses this batch'; END $$`);
    await db.query(`CREATE TRIGGER test_refuse_batch BEFORE INSERT ON invitation_batches FOR EACH ROW
      WHEN (NEW.organization_id = '${org.id}') EXECUTE FUNCTION test_refuse_batch()`);
    try {
      const client = await world.client('userManager');
      const before = await counts(org.id);
      const addresses = [uniqueEmail('atomic1'), uniqueEmail('atomic2'), uniqueEmail('atomic3')];
      const res = await client.post(`/api/organizations/${org.id}/invitations/bulk`, { csv: ['email', ...addresses].join('\n') });
      expect(res.status).toBeGreaterThanOrEqual(500);
      expect(await counts(org.id)).toEqual(before);
      for (const address of addresses) expect(portal.smtp.to(address)).toHaveLength(0);
    } finally {
      await db.query('DROP TRIGGER test_refuse_batch ON invitation_batches');
      await db.query('DROP FUNCTION test_refuse_batch()');
    }
  });
});

const BAD_URIS = ['javascript:alert(1)', 'not a url', 'ftp://rp.example/path', 'https://rp.example/path\0', 'https://*.rp.example/path'];

async function storedClients(): Promise<number> {
  const { rows } = await portal.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM oidc_payloads WHERE model = 'Client'`);
  return rows[0]!.n;
}

async function dcr(method: 'POST' | 'PUT', url: string, token: string, body: Record<string, unknown>) {
  const res = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

const GOOD = {
  client_name: 'Input checks',
  redirect_uris: ['https://rp.example/callback'],
  post_logout_redirect_uris: ['https://rp.example/logged-out'],
  token_endpoint_auth_method: 'none',
  application_type: 'web',
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
};

/** Every bad value of every URI property, as web and as native client, with the error it must answer. */
function badMetadata(): { metadata: Record<string, unknown>; error: string }[] {
  const cases: { metadata: Record<string, unknown>; error: string }[] = [];
  for (const uri of BAD_URIS) {
    for (const application_type of ['web', 'native']) {
      cases.push({ metadata: { application_type, redirect_uris: [uri] }, error: 'invalid_redirect_uri' });
      cases.push({ metadata: { application_type, redirect_uris: ['https://rp.example/callback', uri] }, error: 'invalid_redirect_uri' });
    }
    cases.push({ metadata: { post_logout_redirect_uris: [uri] }, error: 'invalid_client_metadata' });
    cases.push({ metadata: { frontchannel_logout_uri: uri }, error: 'invalid_client_metadata' });
    cases.push({ metadata: { backchannel_logout_uri: uri }, error: 'invalid_client_metadata' });
    cases.push({ metadata: { client_uri: uri }, error: 'invalid_client_metadata' });
  }
  cases.push({ metadata: { application_type: 'native', redirect_uris: ['http://127.0.0.1:8123/cb\0'] }, error: 'invalid_redirect_uri' });
  cases.push({ metadata: { redirect_uris: ['https://user:secret@rp.example/callback'] }, error: 'invalid_redirect_uri' });
  cases.push({ metadata: { frontchannel_logout_uri: 42 }, error: 'invalid_client_metadata' });
  cases.push({ metadata: { frontchannel_logout_session_required: 'yes' }, error: 'invalid_client_metadata' });
  return cases;
}

describe('client registration refuses bad URIs (400, nothing stored)', () => {
  it('POST /connect/dcr', async () => {
    const before = await storedClients();
    const failures: string[] = [];
    for (const { metadata, error } of badMetadata()) {
      const res = await dcr('POST', `${portal.url}/connect/dcr`, DCR_TOKEN, { ...GOOD, ...metadata });
      if (res.status !== 400 || res.body.error !== error)
        failures.push(`${JSON.stringify(metadata)} → ${res.status} ${JSON.stringify(res.body)} (expected 400 ${error})`);
    }
    expect(failures).toEqual([]);
    expect(await storedClients()).toBe(before);
    // the good metadata itself registers
    expect((await dcr('POST', `${portal.url}/connect/dcr`, DCR_TOKEN, GOOD)).status).toBe(201);
  });

  it('PUT to the registration_client_uri (RFC 7592): the client keeps its metadata', async () => {
    const client = await registerClient(portal, { frontchannel_logout_uri: 'https://rp.example/front' });
    const kept = Object.fromEntries(
      Object.entries(client).filter(([k]) => !['registration_access_token', 'registration_client_uri', 'client_id_issued_at'].includes(k)),
    );
    let token = String(client.registration_access_token);
    const failures: string[] = [];
    for (const { metadata, error } of badMetadata()) {
      const res = await dcr('PUT', String(client.registration_client_uri), token, { ...kept, ...metadata });
      // an update that went through rotates the registration access token
      if (res.status === 200) token = String(res.body.registration_access_token);
      if (res.status !== 400 || res.body.error !== error)
        failures.push(`${JSON.stringify(metadata)} → ${res.status} ${JSON.stringify(res.body)} (expected 400 ${error})`);
    }
    expect(failures).toEqual([]);
    const read = await fetch(String(client.registration_client_uri), { headers: { authorization: `Bearer ${token}` } });
    expect(read.status).toBe(200);
    const now = (await read.json()) as Record<string, unknown>;
    expect(now.redirect_uris).toEqual(client.redirect_uris);
    expect(now.post_logout_redirect_uris).toEqual(client.post_logout_redirect_uris);
    expect(now.frontchannel_logout_uri).toBe('https://rp.example/front');
  });
});

// ---- addresses from PUBLIC_URL only -------------------------------------------------------------

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A request with the Host header of our choosing (fetch always sends the URL's own). */
function raw(target: TestPortal, method: string, path: string, headers: Record<string, string>, body?: string): Promise<RawResponse> {
  const { hostname, port } = new URL(target.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function cookiesOf(res: RawResponse, jar: Map<string, string>): void {
  const lines = res.headers['set-cookie'] ?? [];
  for (const line of Array.isArray(lines) ? lines : [lines]) {
    const pair = line.split(';')[0]!;
    const eq = pair.indexOf('=');
    jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
  }
}

const cookieHeader = (jar: Map<string, string>) => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');

/** Every absolute address in a text (JSON, a Location header). */
const addresses = (text: string) => [...text.matchAll(/[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]*/gi)].map((m) => m[0]);

const HOSTILE: Record<string, Record<string, string>> = {
  Host: { host: 'evil.example' },
  'X-Forwarded-Host': { 'x-forwarded-host': 'evil.example' },
  'X-Forwarded-Proto': { 'x-forwarded-proto': 'https' },
  Forwarded: { forwarded: 'host=evil.example;proto=https' },
  'all of them': {
    host: 'evil.example',
    'x-forwarded-host': 'evil.example',
    'x-forwarded-proto': 'https',
    'x-forwarded-port': '443',
    forwarded: 'for=192.0.2.1;host=evil.example;proto=https',
  },
};

async function checkAddresses(target: TestPortal, targetWorld: World): Promise<string[]> {
  const origin = new URL(target.url).origin;
  const failures: string[] = [];
  const expectPublic = (what: string, found: string[]) => {
    for (const address of found) if (!address.startsWith(`${origin}/`) && address !== origin) failures.push(`${what}: ${address}`);
  };
  const clientUser = targetWorld.users.member;
  const rp = await registerClient(target, { redirect_uris: ['http://127.0.0.1:8123/callback'] });
  for (const [name, headers] of Object.entries(HOSTILE)) {
    const discovery = await raw(target, 'GET', '/.well-known/openid-configuration', headers);
    expect(discovery.status, name).toBe(200);
    const document = JSON.parse(discovery.text) as Record<string, unknown>;
    if (document.issuer !== target.url) failures.push(`${name} discovery issuer: ${String(document.issuer)}`);
    expectPublic(`${name} discovery`, addresses(discovery.text));
    if (!String(document.jwks_uri).startsWith(origin)) failures.push(`${name} jwks_uri: ${String(document.jwks_uri)}`);

    const jwks = await raw(target, 'GET', '/connect/jwks', headers);
    expect(jwks.status, name).toBe(200);
    expectPublic(`${name} jwks`, addresses(jwks.text));

    const registration = await raw(
      target,
      'POST',
      '/connect/dcr',
      { ...headers, 'content-type': 'application/json', authorization: `Bearer ${DCR_TOKEN}` },
      JSON.stringify(GOOD),
    );
    expect(registration.status, `${name}: ${registration.text}`).toBe(201);
    const registered = JSON.parse(registration.text) as Record<string, unknown>;
    if (!String(registered.registration_client_uri).startsWith(`${origin}/connect/`))
      failures.push(`${name} registration_client_uri: ${String(registered.registration_client_uri)}`);

    // an error of the authorization endpoint goes to the portal's error page
    const error = await raw(target, 'GET', '/connect/authorize?client_id=unknown&response_type=code&scope=openid', headers);
    expectPublic(`${name} authorization error`, addresses(String(error.headers.location ?? '')));

    // a signed-in user's authorization: the interaction, then back to the provider (resume)
    const jar = new Map([['pp_session', await target.services.sessions.create(clientUser.id, false)]]);
    const query = new URLSearchParams({
      client_id: String(rp.client_id),
      response_type: 'code',
      scope: 'openid',
      redirect_uri: 'http://127.0.0.1:8123/callback',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      state: 'state-of-the-test',
    });
    const authorize = await raw(target, 'GET', `/connect/authorize?${query.toString()}`, { ...headers, cookie: cookieHeader(jar) });
    cookiesOf(authorize, jar);
    expect(authorize.status, `${name}: ${authorize.text}`).toBe(303);
    const interaction = String(authorize.headers.location);
    expectPublic(`${name} interaction redirect`, addresses(interaction));
    const interactionPath = interaction.startsWith('/') ? interaction : new URL(interaction).pathname;
    expect(interactionPath, name).toMatch(/^\/connect\/interaction\//);
    const resume = await raw(target, 'GET', interactionPath, { ...headers, cookie: cookieHeader(jar) });
    expect(resume.status, `${name}: ${resume.text}`).toBe(303);
    expectPublic(`${name} resume redirect`, addresses(String(resume.headers.location)));
  }
  return failures;
}

describe('addresses derive from PUBLIC_URL, whatever the Host and forwarding headers say', () => {
  it('with TRUST_PROXY off: discovery, JWKS, registration, authorization error and interaction redirects', async () => {
    expect(await checkAddresses(portal, world)).toEqual([]);
  });

  it('with TRUST_PROXY on (it is for the client address only)', async () => {
    const proxied = await startPortal({ DCR_INITIAL_ACCESS_TOKEN: DCR_TOKEN, TRUST_PROXY: 'true' });
    try {
      expect(await checkAddresses(proxied, await buildWorld(proxied))).toEqual([]);
    } finally {
      await proxied.close();
    }
  });
});
