import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortalWith, type TestPortal } from '../support/portal.js';
import { buildFixture, type Fixture } from '../organizations/fixtures.js';
import {
  Directory,
  entraUser,
  ERROR_SCHEMA,
  expectScimError,
  LIST_RESPONSE,
  makeToken,
  ORGANIZATION_EXTENSION,
  patchOp,
  USER_SCHEMA,
} from './support.js';

/**
 * The SCIM protocol around the users: discovery (ServiceProviderConfig, ResourceTypes, Schemas),
 * filters and paging, and errors. Whatever a client sends (malformed JSON, filters, ids, bodies,
 * media types, no token), the answer is a SCIM error message with its status as a string, never a
 * 5xx and never a problem document.
 */
let portal: TestPortal;
let f: Fixture;
let scim: Directory;
beforeAll(async () => {
  ({ portal, built: f } = await startPortalWith(buildFixture));
  scim = new Directory(portal, (await makeToken(f.userMgrA.client, f.tree.a.id, 'Okta')).token);
});
afterAll(() => portal?.close());

const unique = (label: string) => `${label}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@paging.example`;

describe('discovery', () => {
  it('ServiceProviderConfig: PATCH, filter (200 results at most) and ETags are supported; bulk, sort and passwords are not', async () => {
    const res = await scim.get('/ServiceProviderConfig');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
      patch: { supported: true },
      filter: { supported: true, maxResults: 200 },
      etag: { supported: true },
      bulk: { supported: false },
      sort: { supported: false },
      changePassword: { supported: false },
      authenticationSchemes: [expect.objectContaining({ type: 'oauthbearertoken' })],
      meta: { location: `${portal.url}/scim/v2/ServiceProviderConfig` },
    });
  });

  it('ResourceTypes: User with the organization extension; Schemas: the User schema and the extension', async () => {
    const types = await scim.get('/ResourceTypes');
    expect(types.status).toBe(200);
    expect(types.body.schemas).toEqual([LIST_RESPONSE]);
    const user = types.body.Resources.find((r: { id: string }) => r.id === 'User');
    expect(user).toMatchObject({
      endpoint: '/Users',
      schema: USER_SCHEMA,
      schemaExtensions: expect.arrayContaining([{ schema: ORGANIZATION_EXTENSION, required: false }]),
      meta: { location: `${portal.url}/scim/v2/ResourceTypes/User` },
    });
    expect((await scim.get('/ResourceTypes/User')).body.id).toBe('User');
    expectScimError(await scim.get('/ResourceTypes/Group'), 404);

    const schemas = await scim.get('/Schemas');
    const ids = schemas.body.Resources.map((s: { id: string }) => s.id);
    expect(ids).toEqual(expect.arrayContaining([USER_SCHEMA, ORGANIZATION_EXTENSION]));
    const extension = await scim.get(`/Schemas/${ORGANIZATION_EXTENSION}`);
    expect(extension.status).toBe(200);
    expect(extension.body.attributes.map((a: { name: string }) => a.name)).toEqual(['organizationId']);
    expectScimError(await scim.get('/Schemas/urn:nothing'), 404);
  });

  it('needs a token, like every endpoint (401 with WWW-Authenticate)', async () => {
    for (const authorization of [undefined, 'Bearer ', 'Bearer ppscim_wrong', 'Basic dXNlcjpwYXNz', `Bearer ${'x'.repeat(5000)}`]) {
      const res = await fetch(`${portal.url}/scim/v2/ServiceProviderConfig`, { headers: authorization ? { authorization } : {} });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(await res.json()).toMatchObject({ schemas: [ERROR_SCHEMA], status: '401' });
    }
    // a session of the portal is no SCIM token, and the endpoints need no X-CSRF
    const withSession = await fetch(`${portal.url}/scim/v2/Users`, { headers: { cookie: f.userMgrA.client.cookieHeader() } });
    expect(withSession.status).toBe(401);
  });
});

describe('a user without a name', () => {
  it('is answered without empty name parts: no name at all, or only the part it has', async () => {
    const nameless = await scim.post('/Users', { schemas: [USER_SCHEMA], userName: unique('nameless').replace('@paging.', '@names.') });
    expect(nameless.status, nameless.text).toBe(201);
    expect(nameless.body).not.toHaveProperty('name');
    expect(nameless.body).not.toHaveProperty('displayName');
    const read = await scim.get(`/Users/${nameless.body.id}`);
    expect(read.body).not.toHaveProperty('name');

    const given = await scim.post('/Users', {
      schemas: [USER_SCHEMA],
      userName: unique('given').replace('@paging.', '@names.'),
      name: { givenName: 'Ana' },
    });
    expect(given.status, given.text).toBe(201);
    expect(given.body.name).toEqual({ givenName: 'Ana' });
  });
});

describe('GET /Users: filters and paging', () => {
  const emails: string[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 5; i++) {
      const email = unique(`page${i}`);
      emails.push(email);
      const res = await scim.post('/Users', entraUser(email, { externalId: `page-${i}`, active: i !== 4 }));
      expect(res.status, res.text).toBe(201);
    }
  });

  it('pages with startIndex and count, and counts without a page (count=0)', async () => {
    const filter = encodeURIComponent('userName ew "@paging.example"');
    const first = await scim.get(`/Users?filter=${filter}&startIndex=1&count=2`);
    expect(first.body).toMatchObject({ totalResults: 5, startIndex: 1, itemsPerPage: 2 });
    const second = await scim.get(`/Users?filter=${filter}&startIndex=3&count=2`);
    expect(second.body).toMatchObject({ totalResults: 5, startIndex: 3, itemsPerPage: 2 });
    const last = await scim.get(`/Users?filter=${filter}&startIndex=5&count=2`);
    expect(last.body.itemsPerPage).toBe(1);
    const ids = [...first.body.Resources, ...second.body.Resources, ...last.body.Resources].map((u: { userName: string }) => u.userName);
    expect(new Set(ids)).toEqual(new Set(emails));
    const counted = await scim.get(`/Users?filter=${filter}&count=0`);
    expect(counted.body).toMatchObject({ totalResults: 5, itemsPerPage: 0, Resources: [] });
    // out of range: the first page, and no more than 200
    expect((await scim.get(`/Users?filter=${filter}&startIndex=-4&count=100000`)).body).toMatchObject({ startIndex: 1, itemsPerPage: 5 });
  });

  it('filters with and, or, not, co, sw, pr, active and the extension; attributes narrows what comes back', async () => {
    const q = async (filter: string, extra = '') => (await scim.get(`/Users?filter=${encodeURIComponent(filter)}${extra}`)).body;
    expect((await q(`externalId eq "page-1" or externalId eq "page-2"`)).totalResults).toBe(2);
    expect((await q(`userName ew "@paging.example" and active eq false`)).Resources.map((u: { userName: string }) => u.userName)).toEqual([
      emails[4],
    ]);
    expect((await q(`userName ew "@paging.example" and not (active eq false)`)).totalResults).toBe(4);
    expect((await q(`userName sw "${emails[0]!.slice(0, 10)}"`)).totalResults).toBe(1);
    expect((await q(`emails[type eq "work" and value co "page3"]`)).totalResults).toBe(1);
    expect((await q(`emails.value eq "${emails[2]!.toUpperCase()}"`)).totalResults).toBe(1);
    expect((await q(`externalId eq "PAGE-1"`)).totalResults).toBe(0);
    expect((await q(`name.givenName eq "julia" and userName ew "@paging.example"`)).totalResults).toBe(5);
    expect((await q(`${ORGANIZATION_EXTENSION}:organizationId eq "${f.tree.a.id}" and externalId pr`)).totalResults).toBeGreaterThanOrEqual(
      5,
    );
    const narrow = await q(`externalId eq "page-0"`, '&attributes=userName');
    expect(Object.keys(narrow.Resources[0]).sort()).toEqual(['id', 'schemas', 'userName']);
  });

  it('refuses what it cannot filter (400 invalidFilter)', async () => {
    for (const filter of [
      'userName eq',
      'userName xx "a"',
      'title eq "Sales"',
      'meta.lastModified gt "2020-01-01T00:00:00Z"',
      'active eq "maybe"',
      'userName eq 5',
      'id co "a"',
      '(((',
      'userName eq "a\\"b"',
      '   ',
      // scimmy's parser throws TypeErrors at these (found by robustness.test.ts)
      'pdf',
      'true',
      '99999999999',
      // a logical operator with nothing after it (scimmy's parser drops it)
      'userName eq "a@example.com" and',
      'userName eq "a@example.com" OR ',
      'userName eq "a@example.com" and not',
    ]) {
      const res = await scim.get(`/Users?filter=${encodeURIComponent(filter)}`);
      expectScimError(res, 400, 'invalidFilter');
    }
    expectScimError(await scim.get('/Users?filter=a&filter=b'), 400, 'invalidFilter');
    expectScimError(await scim.get('/Users?startIndex=one'), 400, 'invalidValue');
    expectScimError(await scim.get('/Users?count=1.5'), 400, 'invalidValue');
    expectScimError(await scim.get(`/Users?attributes=${encodeURIComponent('not (')}`), 400, 'invalidFilter');
  });
});

describe('errors are SCIM errors, never 5xx', () => {
  it('unknown and malformed ids: 404', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id', '%22%20or%201%3D1', 'x'.repeat(150)]) {
      expectScimError(await scim.get(`/Users/${id}`), 404);
      expectScimError(await scim.delete(`/Users/${id}`), 404);
      expectScimError(await scim.patch(`/Users/${id}`, patchOp({ op: 'replace', path: 'active', value: false })), 404);
    }
    expectScimError(await scim.get('/Groups'), 404);
    expectScimError(await scim.request('POST', '/ServiceProviderConfig', {}), 404);
    const badEncoding = await fetch(`${portal.url}/scim/v2/Users/%E0%A4%A`, { headers: { authorization: `Bearer ${scim.token}` } });
    expect(badEncoding.status).toBe(400);
    expect(((await badEncoding.json()) as { schemas: string[] }).schemas).toEqual([ERROR_SCHEMA]);
  });

  it('malformed bodies and media types', async () => {
    expectScimError(await scim.post('/Users', undefined, { raw: '{"userName": ' }), 400, 'invalidSyntax');
    expectScimError(await scim.post('/Users', undefined, { raw: '' }), 400);
    expectScimError(await scim.post('/Users', undefined, { raw: '{"__proto__": {"x": 1}, "userName": "a@b.example"}' }), 400);
    expectScimError(await scim.post('/Users', undefined, { raw: `${'['.repeat(5000)}${']'.repeat(5000)}` }), 400);
    const deep = `{"userName": "deep@x.example", "name": ${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}}`;
    expect((await scim.post('/Users', undefined, { raw: deep })).status).toBeLessThan(500);
    const text = await scim.post('/Users', undefined, { raw: 'userName=a', contentType: 'text/plain' });
    expect(text.status).toBe(415);
    expect(text.body.schemas).toEqual([ERROR_SCHEMA]);
    // application/json is accepted as well
    const json = await scim.post('/Users', entraUser(unique('json')), { contentType: 'application/json' });
    expect(json.status, json.text).toBe(201);
  });

  it('bodies that are no user, or a user the portal cannot take', async () => {
    const bodies: unknown[] = [
      [],
      'a string',
      42,
      null,
      {},
      { schemas: [USER_SCHEMA] },
      { schemas: ['urn:wrong'], userName: unique('wrong') },
      { userName: 'not an address' },
      { userName: 5 },
      { userName: unique('names'), name: { givenName: ['a'] } },
      { userName: unique('names'), name: { givenName: 'x'.repeat(101) } },
      { userName: unique('emails'), emails: 'a@b.example' },
      { userName: unique('active'), active: 'maybe' },
      { userName: unique('different'), emails: [{ value: unique('other'), primary: true }] },
      { userName: unique('ext'), [ORGANIZATION_EXTENSION]: { organizationId: 42 } },
      { userName: unique('ext'), externalId: 'x'.repeat(301) },
      { userName: `${'a'.repeat(200)}@x.example` },
    ];
    for (const body of bodies) {
      const res = await scim.post('/Users', undefined, { raw: JSON.stringify(body) });
      expect(res.status, `${JSON.stringify(body).slice(0, 80)} → ${res.text}`).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.body.schemas).toEqual([ERROR_SCHEMA]);
      expect(res.body.status).toBe(String(res.status));
    }
  });

  it('PATCH messages that are none, and paths that are none or lead into a plain attribute', async () => {
    const created = await scim.post('/Users', entraUser(unique('patch')));
    const id = created.body.id;
    const messages: unknown[] = [
      {},
      { Operations: [{ op: 'replace', path: 'active', value: false }] },
      { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [] },
      patchOp({ op: 'explode', path: 'active', value: false }),
      patchOp({ path: 'active', value: false }),
      patchOp({ op: 'remove' }),
      patchOp({ op: 'add', path: 'emails[type eq', value: 1 }),
      patchOp({ op: 'add', path: 'userName.first', value: 1 }),
      patchOp({ op: 'replace', path: 'emails[type eq "work"].value', value: 'not an address' }),
      patchOp({ op: 'replace', path: 'userName', value: null }),
      patchOp({ op: 'replace', path: 'active', value: 'sometimes' }),
      patchOp({ op: 'add', value: 'not an object' }),
      { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: ['not an operation'] },
    ];
    for (const message of messages) {
      const res = await scim.patch(`/Users/${id}`, message);
      expect(res.status, `${JSON.stringify(message)} → ${res.text}`).toBe(400);
      expect(res.body.schemas).toEqual([ERROR_SCHEMA]);
    }
    // the member is as it was
    expect((await scim.get(`/Users/${id}`)).body.active).toBe(true);
    // only what the portal does not keep, or an attribute it does not know: nothing changes, the member comes back
    for (const operation of [
      { op: 'Add', path: 'phoneNumbers[type eq "mobile"].value', value: '+31 6 1234' },
      { op: 'add', path: 'nothing.here', value: 1 },
    ]) {
      const ignored = await scim.patch(`/Users/${id}`, patchOp(operation));
      expect(ignored.status, ignored.text).toBe(200);
      expect(ignored.body.id).toBe(id);
    }
  });

  it('uniqueness: an address of another account, or of a pending invitation elsewhere (409)', async () => {
    expectScimError(await scim.post('/Users', entraUser(f.mgrB.email)), 409, 'uniqueness');
    const email = unique('invited');
    const invited = await f.mgrB.client.post(`/api/organizations/${f.tree.b.id}/invitations`, {
      email_address: email,
      language_code: 'en',
    });
    expect(invited.status).toBe(201);
    expectScimError(await scim.post('/Users', entraUser(email)), 409, 'uniqueness');
    // an invitation of the token's own subtree is superseded by the directory
    const own = unique('own-invited');
    await f.userMgrA.client.post(`/api/organizations/${f.tree.north.id}/invitations`, { email_address: own, language_code: 'en' });
    const created = await scim.post('/Users', entraUser(own));
    expect(created.status, created.text).toBe(201);
    const states = await portal.services.db.query<{ state: string; member_id: string | null }>(
      'SELECT state, member_id FROM invitations WHERE lower(email) = lower($1) ORDER BY created_at',
      [own],
    );
    expect(states.rows).toEqual([
      { state: 'REVOKED', member_id: null },
      { state: 'PENDING', member_id: created.body.id },
    ]);
    // a change of address to a taken one
    expectScimError(
      await scim.patch(`/Users/${created.body.id}`, patchOp({ op: 'replace', path: 'userName', value: f.plainA.email })),
      409,
      'uniqueness',
    );
  });
});
