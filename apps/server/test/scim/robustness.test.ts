import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortalWith, type TestPortal } from '../support/portal.js';
import type { HttpResponse } from '../support/http.js';
import { anyJson, badPathParam, badQueryValue, HUGE, hostileString, malformedJson } from '../security/support/fuzz.js';
import { buildFixture, type Fixture } from '../organizations/fixtures.js';
import { Directory, entraUser, ERROR_SCHEMA, makeToken, ORGANIZATION_EXTENSION, PATCH_OP, USER_SCHEMA } from './support.js';

/**
 * Robustness of the SCIM endpoints: property-based requests of a directory (hostile ids, filters,
 * paging, bodies, PatchOp messages, media types). Every answer is below 500, every error a SCIM
 * error message (its status as a string) without internals, and the portal stays healthy.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 20);
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
let portal: TestPortal;
let f: Fixture;
let scim: Directory;
let memberId = '';
beforeAll(async () => {
  ({ portal, built: f } = await startPortalWith(buildFixture));
  scim = new Directory(portal, (await makeToken(f.userMgrA.client, f.tree.a.id, 'Fuzz')).token);
  const created = await scim.post('/Users', entraUser(`fuzz.${Date.now()}@fuzz.example`));
  memberId = created.body.id;
});
afterAll(() => portal?.close());

const INTERNALS =
  /(\bat [\w.<>]+ \(|node_modules|\.ts:\d+|\.js:\d+|syntax error at or near|violates .* constraint|duplicate key value|relation "|column "|invalid input syntax)/i;

function checkAnswer(res: HttpResponse, what: string): string | null {
  if (res.status >= 500) return `${what} → ${res.status} ${res.text.slice(0, 200)}`;
  if (res.status >= 400) {
    const type = res.headers.get('content-type') ?? '';
    if (!type.startsWith('application/scim+json')) return `${what} → ${res.status} with content-type ${type}`;
    const body = res.body as { schemas?: string[]; status?: string };
    if (body.schemas?.[0] !== ERROR_SCHEMA || body.status !== String(res.status))
      return `${what} → ${res.status} ${res.text.slice(0, 200)}`;
  }
  if (INTERNALS.test(res.text)) return `${what} → leaks internals: ${res.text.slice(0, 200)}`;
  return null;
}

/** What a user body may hold: the attributes the portal reads, with hostile or wrongly typed values. */
const userBody = fc.record(
  {
    schemas: fc.oneof(fc.constant([USER_SCHEMA]), fc.array(hostileString, { maxLength: 2 }), anyJson),
    userName: fc.oneof(hostileString, fc.emailAddress(), anyJson),
    name: fc.oneof(fc.record({ givenName: fc.oneof(hostileString, anyJson), familyName: hostileString }, { requiredKeys: [] }), anyJson),
    emails: fc.oneof(
      fc.array(fc.record({ value: fc.oneof(hostileString, fc.emailAddress()), primary: anyJson, type: hostileString })),
      anyJson,
    ),
    active: fc.oneof(fc.boolean(), fc.constantFrom('True', 'False', 'yes', ''), anyJson),
    preferredLanguage: fc.oneof(hostileString, anyJson),
    externalId: fc.oneof(hostileString, anyJson),
    [ORGANIZATION_EXTENSION]: fc.oneof(fc.record({ organizationId: fc.oneof(hostileString, fc.uuid(), anyJson) }), anyJson),
    // what directories send and the portal does not keep
    roles: fc.oneof(fc.array(fc.record({ type: hostileString, value: anyJson, primary: anyJson })), anyJson),
    title: fc.oneof(hostileString, anyJson),
    [ENTERPRISE]: anyJson,
    constructor: anyJson,
  },
  { requiredKeys: [] },
);

const patchBody = fc.oneof(
  fc.record(
    {
      schemas: fc.oneof(fc.constant([PATCH_OP]), anyJson),
      Operations: fc.oneof(
        fc.array(
          fc.record(
            {
              op: fc.oneof(fc.constantFrom('add', 'Replace', 'REMOVE', 'copy'), hostileString, anyJson),
              path: fc.oneof(
                fc.constantFrom(
                  'active',
                  'userName',
                  'name.givenName',
                  'emails[type eq "work"].value',
                  'emails[',
                  `${ORGANIZATION_EXTENSION}:organizationId`,
                  // what the portal does not keep, and names an object has of itself
                  'roles',
                  'roles[type eq "WindowsAzureActiveDirectoryRole"].value',
                  'title',
                  'name.formatted',
                  `${ENTERPRISE}:department`,
                  'constructor',
                  '__proto__.x',
                ),
                hostileString,
                anyJson,
              ),
              value: fc.oneof(anyJson, hostileString, userBody),
            },
            { requiredKeys: [] },
          ),
          { maxLength: 4 },
        ),
        anyJson,
      ),
    },
    { requiredKeys: [] },
  ),
  anyJson,
);

type Body = { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'raw'; text: string; contentType: string };
const rawBody = fc.oneof(
  malformedJson.map((text): Body => ({ kind: 'raw', text, contentType: 'application/scim+json' })),
  fc
    .tuple(
      fc.constantFrom('text/plain', 'application/xml', 'application/scim+json; charset=utf-16', 'multipart/form-data; boundary=x'),
      fc.constantFrom('a=1', HUGE, '{}'),
    )
    .map(([contentType, text]): Body => ({ kind: 'raw', text, contentType })),
);
const json = (arbitrary: fc.Arbitrary<unknown>) => arbitrary.map((value): Body => ({ kind: 'json', value }));

const ENDPOINTS: { method: string; path: (id: string) => string; body: fc.Arbitrary<Body> }[] = [
  { method: 'GET', path: (id) => `/Users/${id}`, body: fc.constant<Body>({ kind: 'none' }) },
  { method: 'GET', path: () => '/Users', body: fc.constant<Body>({ kind: 'none' }) },
  { method: 'POST', path: () => '/Users', body: fc.oneof(json(userBody), json(anyJson), rawBody) },
  { method: 'PUT', path: (id) => `/Users/${id}`, body: fc.oneof(json(userBody), json(anyJson), rawBody) },
  { method: 'PATCH', path: (id) => `/Users/${id}`, body: fc.oneof(json(patchBody), rawBody) },
  { method: 'DELETE', path: (id) => `/Users/${id}`, body: fc.constant<Body>({ kind: 'none' }) },
  { method: 'GET', path: (id) => `/Schemas/${id}`, body: fc.constant<Body>({ kind: 'none' }) },
  { method: 'GET', path: (id) => `/ResourceTypes/${id}`, body: fc.constant<Body>({ kind: 'none' }) },
];

const query = fc.dictionary(
  fc.constantFrom('filter', 'startIndex', 'count', 'attributes', 'excludedAttributes', 'sortBy'),
  fc.oneof(
    badQueryValue,
    fc.constantFrom('userName eq "x"', 'emails[type eq "work"].value co ""', 'not (', 'active eq "True"', '-1', '0', '99999999999', 'name'),
  ),
  { maxKeys: 4 },
);

describe('robustness of the SCIM endpoints', () => {
  for (const endpoint of ENDPOINTS) {
    it(`${endpoint.method} ${endpoint.path('{id}')} answers hostile input with SCIM errors, never a 5xx`, async () => {
      const failures: string[] = [];
      await fc
        .assert(
          fc.asyncProperty(
            fc.record({ id: fc.oneof(badPathParam, fc.constant(memberId), fc.uuid()), query, body: endpoint.body }),
            async ({ id, query: params, body }) => {
              const qs = Object.keys(params).length ? `?${new URLSearchParams(params).toString()}` : '';
              const path = endpoint.path(id) + qs;
              const res =
                body.kind === 'none'
                  ? await scim.request(endpoint.method, path)
                  : body.kind === 'json'
                    ? await scim.request(endpoint.method, path, body.value)
                    : await scim.request(endpoint.method, path, undefined, { raw: body.text, contentType: body.contentType });
              const problem = checkAnswer(res, `${endpoint.method} ${path.slice(0, 120)} body=${JSON.stringify(body).slice(0, 160)}`);
              if (problem) failures.push(problem);
              return problem === null;
            },
          ),
          { numRuns: RUNS, endOnFailure: true },
        )
        .catch(() => undefined);
      expect(failures).toEqual([]);
      expect((await portal.client().get('/health')).status).toBe(200);
    });
  }
});
