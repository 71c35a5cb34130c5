import fc from 'fast-check';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { NO_LOGIN_LIMITS, startPortal } from '../support/portal.js';
import type { HttpResponse } from '../support/http.js';
import { badPathParam, badQueryValue, HUGE, malformedJson, valueOf, wrongTypeOf } from './support/fuzz.js';
import { apiRoutes, bodySchema, routerRoutes, type ApiRoute } from './support/routes.js';

/**
 * Robustness: property-based requests to every /api route of the running portal,
 * read from its router and OpenAPI document: malformed JSON, wrong types, huge strings, unicode
 * and NUL, arrays where objects belong, path parameters that are not ids. Every answer must be
 * below 500, every error a problem+json document without internals, and /health stays 200.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 20);

const portal = await startPortal(NO_LOGIN_LIMITS);
const routes = await apiRoutes(portal.app);
afterAll(async () => {
  await portal.close();
});

// PostgreSQL's own names (pg_catalog, pg_stat_activity…) are matched in lower case after a word
// boundary: case-insensitively, a random error id or code of ours ("…XpG_7Sh…") matched too.
const INTERNALS =
  /(\bat [\w.<>]+ \(|node_modules|\.ts:\d+|\.js:\d+|syntax error at or near|violates .* constraint|duplicate key value|relation "|column "|invalid input syntax|ECONNREFUSED)/i;
const POSTGRES_NAME = /\bpg_[a-z]{3,}/;
const leaksInternals = (text: string) => INTERNALS.test(text) || POSTGRES_NAME.test(text);

function checkAnswer(res: HttpResponse, what: string): string | null {
  if (res.status >= 500) return `${what} → ${res.status} ${res.text.slice(0, 200)}`;
  if (res.status >= 400) {
    const type = res.headers.get('content-type') ?? '';
    if (!type.startsWith('application/problem+json')) return `${what} → ${res.status} with content-type ${type}`;
    if ((res.body as { status?: number }).status !== res.status)
      return `${what} → ${res.status} with body status ${(res.body as { status?: number }).status}`;
  }
  if (leaksInternals(res.text)) return `${what} → ${res.status} leaks internals: ${res.text.slice(0, 200)}`;
  return null;
}

type Body = { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'raw'; text: string; contentType: string };

function bodyArbitrary(route: ApiRoute): fc.Arbitrary<Body> {
  const schema = bodySchema(route);
  return fc.oneof(
    { weight: 3, arbitrary: valueOf(schema).map((value): Body => ({ kind: 'json', value })) },
    { weight: 3, arbitrary: wrongTypeOf(schema).map((value): Body => ({ kind: 'json', value })) },
    { weight: 1, arbitrary: fc.array(valueOf(schema), { maxLength: 3 }).map((value): Body => ({ kind: 'json', value })) },
    { weight: 2, arbitrary: malformedJson.map((text): Body => ({ kind: 'raw', text, contentType: 'application/json' })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom(
            'text/plain',
            'application/x-www-form-urlencoded',
            'application/xml',
            'multipart/form-data; boundary=x',
            'application/json; charset=utf-16',
          ),
          fc.constantFrom('a=1', HUGE, '<a/>', '{}'),
        )
        .map(([contentType, text]): Body => ({ kind: 'raw', text, contentType })),
    },
    { weight: 1, arbitrary: fc.constant<Body>({ kind: 'none' }) },
  );
}

function queryArbitrary(route: ApiRoute): fc.Arbitrary<Record<string, string>> {
  const names = (route.operation?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
  const keys = [...new Set([...names, 'q', 'returnUrl'])];
  return fc.dictionary(fc.constantFrom(...keys), badQueryValue, { maxKeys: keys.length });
}

describe('robustness of every /api route', () => {
  it('reads the route table from the router', async () => {
    const app = Fastify();
    app.get('/api/a/tree', async () => 1);
    app.get('/api/a/:id', async () => 1);
    app.delete('/api/a/:id/members/:memberId', async () => 1);
    app.post('/api/a', async () => 1);
    await app.ready();
    expect(routerRoutes(app).filter((r) => r.method !== 'HEAD')).toEqual(
      expect.arrayContaining([
        { method: 'POST', path: '/api/a' },
        { method: 'GET', path: '/api/a/tree' },
        { method: 'GET', path: '/api/a/{id}' },
        { method: 'DELETE', path: '/api/a/{id}/members/{memberId}' },
      ]),
    );
    await app.close();
    expect(routerRoutes(portal.app)).toContainEqual({ method: 'GET', path: '/health' });
  });

  for (const route of routes) {
    it(`${route.key} answers hostile input with 4xx problems, never a 5xx`, async () => {
      const failures: string[] = [];
      const admin = await portal.sessionFor(portal.adminUserId);
      await fc
        .assert(
          fc.asyncProperty(
            fc.record({
              params: fc.tuple(...route.params.map(() => badPathParam)),
              query: queryArbitrary(route),
              body: route.method === 'GET' || route.method === 'DELETE' ? fc.constant<Body>({ kind: 'none' }) : bodyArbitrary(route),
              signedIn: fc.boolean(),
            }),
            async ({ params, query, body, signedIn }) => {
              let i = 0;
              const path = route.path.replace(/\{\w+\}/g, () => params[i++] ?? 'x');
              const qs = Object.keys(query).length ? `?${new URLSearchParams(query).toString()}` : '';
              const client = signedIn ? admin : portal.client();
              // a fresh session when the previous run signed out or was rotated
              if (signedIn && !admin.cookies.has('pp_session'))
                admin.cookies.set('pp_session', (await portal.sessionFor(portal.adminUserId)).cookies.get('pp_session')!);
              const res =
                body.kind === 'none'
                  ? await client.request(route.method, path + qs)
                  : body.kind === 'json'
                    ? await client.request(route.method, path + qs, { body: body.value })
                    : await client.request(route.method, path + qs, { raw: body.text, contentType: body.contentType });
              const what = `${route.method} ${path.slice(0, 120)}${qs.slice(0, 120)} body=${JSON.stringify(body).slice(0, 120)}`;
              const problem = checkAnswer(res, what);
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

  it('answers hostile requests to unknown /api paths and methods with problems', async () => {
    const client = portal.client();
    const cases: [string, string][] = [
      ['GET', '/api/%00'],
      ['GET', '/api/..%2F..%2Fetc%2Fpasswd'],
      ['GET', `/api/${'a'.repeat(5000)}`],
      ['GET', '/api/%'],
      ['PROPFIND', '/api/identity/user-info'],
      ['DELETE', '/api/identity/user-info'],
      ['GET', '/api/organizations/%C0%AF'],
      ['POST', '/api/identity/login?email=%00'],
    ];
    const failures: string[] = [];
    for (const [method, path] of cases) {
      const res = await client.request(
        method,
        path,
        method === 'POST' ? { raw: malformedJsonSample, contentType: 'application/json' } : {},
      );
      const problem = checkAnswer(res, `${method} ${path.slice(0, 80)}`);
      if (problem) failures.push(problem);
      else if (res.status < 400) failures.push(`${method} ${path.slice(0, 80)} → ${res.status}`);
    }
    expect(failures).toEqual([]);
    expect((await client.get('/health')).status).toBe(200);
  });

  it('refuses a body over the limit with 413 and stays healthy', async () => {
    const res = await portal.client().request('POST', '/api/identity/login', {
      raw: JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(2 * 1024 * 1024) }),
      contentType: 'application/json',
    });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect((await portal.client().get('/health')).status).toBe(200);
  });
});

const malformedJsonSample = '{"email": ';

describe('the OpenAPI document', () => {
  it('is served, and describes every /api route of the router', async () => {
    const res = await portal.client().get('/api/docs/json', { csrf: false });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    const undocumented = routes.filter((r) => !r.operation).map((r) => r.key);
    expect(undocumented).toEqual([]);
  });
});

describe('robustness of the OpenID Connect endpoints', () => {
  it('answers hostile requests to every endpoint of the discovery document without a 5xx or internals', async () => {
    const discovery = (await portal.client().get('/.well-known/openid-configuration')).body as Record<string, unknown>;
    const endpoints = [
      ...new Set(
        Object.entries(discovery)
          .filter(([k, v]) => (k.endsWith('_endpoint') || k === 'jwks_uri' ? typeof v === 'string' : false))
          .map(([, v]) => new URL(v as string).pathname),
      ),
      '/connect/interaction/unknown',
      '/connect/logout/confirm',
      '/connect/dcr/unknown-client',
    ];
    expect(endpoints.length).toBeGreaterThan(3);
    const failures: string[] = [];
    const field = fc.constantFrom(
      'client_id',
      'redirect_uri',
      'response_type',
      'scope',
      'code',
      'code_verifier',
      'code_challenge',
      'grant_type',
      'refresh_token',
      'token',
      'state',
      'nonce',
      'id_token_hint',
      'post_logout_redirect_uri',
      'request',
      'prompt',
      'max_age',
    );
    await fc
      .assert(
        fc.asyncProperty(
          fc.constantFrom(...endpoints),
          fc.constantFrom('GET', 'POST'),
          fc.dictionary(field, badQueryValue, { maxKeys: 6 }),
          fc.constantFrom('application/x-www-form-urlencoded', 'application/json', 'text/plain'),
          fc.option(fc.constantFrom('Basic Og==', 'Basic ' + Buffer.from('a:b').toString('base64'), 'Bearer x', 'Basic %%%'), {
            nil: undefined,
          }),
          async (path, method, params, contentType, authorization) => {
            const form = new URLSearchParams(params).toString();
            const headers: Record<string, string> = authorization ? { authorization } : {};
            const res =
              method === 'GET'
                ? await portal.client().request('GET', `${path}?${form}`, { headers })
                : await portal.client().request('POST', path, {
                    raw: contentType === 'application/json' ? JSON.stringify(params) : form,
                    contentType,
                    headers,
                  });
            const what = `${method} ${path} ${form.slice(0, 150)}`;
            if (res.status >= 500) failures.push(`${what} → ${res.status} ${res.text.slice(0, 200)}`);
            else if (leaksInternals(res.text)) failures.push(`${what} leaks internals: ${res.text.slice(0, 200)}`);
            return res.status < 500;
          },
        ),
        { numRuns: RUNS * 6, endOnFailure: true },
      )
      .catch(() => undefined);
    expect(failures).toEqual([]);
    expect((await portal.client().get('/health')).status).toBe(200);
  });
});
