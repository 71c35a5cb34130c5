import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../../src/app.js';
import { startPortal, type TestPortal } from '../support/portal.js';

let portal: TestPortal;
const webDist = mkdtempSync(join(tmpdir(), 'pp-web-'));
mkdirSync(join(webDist, 'assets'));
writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Partner Portal</title><div id="root"></div>');
writeFileSync(join(webDist, 'assets', 'app-Bx3k9QaZ.js'), 'console.log(1)');

beforeAll(async () => (portal = await startPortal({ WEB_DIST_DIR: webDist })));
afterAll(() => portal?.close());

describe('the HTTP platform', () => {
  it('GET /health answers 200 {"status":"ok"} without X-CSRF', async () => {
    const res = await portal.client().get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('refuses an /api request without X-CSRF with a 403 problem', async () => {
    const res = await portal.client().get('/api/identity/user-info', { csrf: false });
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 403, i18NTranslationKey: 'csrf_header_missing', instance: '/api/identity/user-info' });
    expect(res.body.type).toBeTruthy();
    expect(res.body.title).toBeTruthy();
  });

  it('refuses X-CSRF with another value', async () => {
    const res = await portal.client().get('/api/portal', { csrf: false, headers: { 'x-csrf': '0' } });
    expect(res.status).toBe(403);
  });

  it('answers an unknown /api path with a 404 problem', async () => {
    const res = await portal.client().get('/api/does-not-exist');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: 404, i18NTranslationKey: 'not_found' });
  });

  it('serves the web app with a history fallback and long-cached hashed assets', async () => {
    const page = await portal.client().get('/manage-organization/123', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<div id="root">');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const asset = await portal.client().get('/assets/app-Bx3k9QaZ.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const missing = await portal.client().get('/assets/missing.js');
    expect(missing.status).toBe(404);
  });

  it('sets the security headers', async () => {
    const res = await portal.client().get('/');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('strict-transport-security')).toBeNull(); // http PUBLIC_URL
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('sends API answers the headers that protect any answer, without those only a document uses', async () => {
    const page = await portal.client().get('/login', { headers: { accept: 'text/html' } });
    const docs = await portal.client().get('/api/docs/', { csrf: false });
    for (const path of ['/api/identity/user-info', '/api/portal/configuration', '/scim/v2/Users']) {
      const res = await portal.client().get(path);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toContain("object-src 'none'");
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('x-frame-options'), path).toBe('SAMEORIGIN');
      expect(res.headers.get('cross-origin-resource-policy'), path).toBe('same-origin');
      expect(res.headers.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('permissions-policy'), path).toContain('camera=()');
      expect(res.headers.get('x-request-id'), path).toBeTruthy();
      for (const documentOnly of [
        'cross-origin-opener-policy',
        'origin-agent-cluster',
        'x-dns-prefetch-control',
        'x-download-options',
        'x-permitted-cross-domain-policies',
        'x-xss-protection',
      ]) {
        expect(res.headers.get(documentOnly), `${path}: ${documentOnly}`).toBeNull();
        // pages (the API's own documentation among them) keep every one
        expect(page.headers.get(documentOnly), `/login: ${documentOnly}`).toBeTruthy();
        expect(docs.headers.get(documentOnly), `/api/docs/: ${documentOnly}`).toBeTruthy();
      }
    }
  });

  it('publishes an OpenAPI 3.1 document at /api/docs', async () => {
    const res = await portal.client().get('/api/docs/json', { csrf: false });
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.paths['/health']).toBeTruthy();
    const ui = await portal.client().get('/api/docs/', { csrf: false });
    expect(ui.status).toBe(200);
  });
});

describe('error handling', () => {
  it('turns malformed JSON, wrong types, wrong media types and thrown errors into problems, never a 5xx', async () => {
    const app = await buildApp(portal.services);
    app.post(
      '/api/echo',
      { schema: { body: z.object({ name: z.string().min(1, { message: 'required_field' }) }) } },
      async (request) => request.body,
    );
    app.get('/api/boom', async () => {
      throw new Error('secret internals: SELECT * FROM users');
    });
    await app.ready();
    /** a raw body of the given type to /api/echo */
    const echo = (contentType: string, payload: string) =>
      app.inject({ method: 'POST', url: '/api/echo', headers: { 'x-csrf': '1', 'content-type': contentType }, payload });
    const malformed = await echo('application/json', '{"name": ');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ status: 400, i18NTranslationKey: 'invalid_json' });

    const invalid = await app.inject({ method: 'POST', url: '/api/echo', headers: { 'x-csrf': '1' }, payload: { name: '' } });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({
      i18NTranslationKey: 'validation_failed',
      errors: { name: [{ translation_key: 'required_field', message: 'Required field' }] },
    });

    const text = await echo('text/plain', 'hello');
    expect(text.statusCode).toBe(400);
    const wrongType = await echo('application/xml', '<a/>');
    expect(wrongType.statusCode).toBe(415);
    expect(wrongType.json()).toMatchObject({ i18NTranslationKey: 'unsupported_media_type' });

    const boom = await app.inject({ method: 'GET', url: '/api/boom', headers: { 'x-csrf': '1' } });
    expect(boom.statusCode).toBe(500);
    expect(boom.body).not.toContain('SELECT');
    expect(boom.json()).toMatchObject({ i18NTranslationKey: 'something_went_wrong' });
    await app.close();
  });
});

describe('rate limiting', () => {
  it('answers 429 with Retry-After once the limit is passed', async () => {
    const limited = await startPortal({ RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_SECONDS: '60' });
    try {
      const client = limited.client();
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push((await client.get('/api/nothing-here')).status);
      expect(statuses.slice(0, 5)).toEqual([404, 404, 404, 404, 404]);
      const res = await client.get('/api/nothing-here');
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(res.body).toMatchObject({ status: 429, i18NTranslationKey: 'too_many_requests' });
      // /health is not limited
      expect((await client.get('/health')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
