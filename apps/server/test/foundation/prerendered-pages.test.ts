import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERFACE_LANGUAGES } from '@partner-portal/contracts';
import { startPortal, type TestPortal } from '../support/portal.js';

// The server's side of the pre-rendered public pages (docs/decisions/021-pre-rendered-public-pages.md),
// on a build of its own: which file answers which address, in which language, with which headers.
// e2e/tests/prerendered-pages.test.ts checks the real build in Chromium.

const SCRIPT_HASH = 'sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';
const webDist = mkdtempSync(join(tmpdir(), 'pp-web-prerendered-'));
mkdirSync(join(webDist, 'prerendered'));
writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Partner Portal</title><div id="root"></div>');
const files: Record<string, string> = {};
for (const language of INTERFACE_LANGUAGES) {
  for (const name of ['login', 'invitation']) {
    writeFileSync(
      join(webDist, 'prerendered', `${name}.${language}.html`),
      `<!doctype html><html lang="${language}"><div id="root" data-prerendered="${language}">${name}</div>`,
    );
  }
  files[language] = `prerendered/login.${language}.html`;
}
writeFileSync(
  join(webDist, 'prerendered', 'pages.json'),
  JSON.stringify({
    scriptHashes: [SCRIPT_HASH],
    pages: [
      { name: 'login', path: '^/login/?$', needs: [], not: ['ReturnUrl'], files },
      {
        name: 'invitation',
        path: '^/invitation/[^/]+/?$',
        needs: ['code'],
        not: [],
        files: Object.fromEntries(INTERFACE_LANGUAGES.filter((l) => l !== 'fr').map((l) => [l, `prerendered/invitation.${l}.html`])),
      },
    ],
  }),
);

let portal: TestPortal;
beforeAll(async () => (portal = await startPortal({ WEB_DIST_DIR: webDist })));
afterAll(() => portal?.close());

async function page(path: string, headers: Record<string, string> = {}) {
  const res = await portal.client().get(path, { headers: { accept: 'text/html', ...headers } });
  return { res, sentIn: /data-prerendered="([^"]+)"/.exec(res.text)?.[1] ?? null };
}

describe('the pre-rendered pages', () => {
  it('are sent in the language of the link, then the cookie, then Accept-Language, then en-GB', async () => {
    expect((await page('/login', { 'accept-language': 'de-AT, nl;q=0.9' })).sentIn).toBe('de');
    expect((await page('/login', { 'accept-language': 'it, pt-PT;q=0.5, nl;q=0.4' })).sentIn).toBe('pt-BR');
    expect((await page('/login', { 'accept-language': 'nl', cookie: 'pp_language=es' })).sentIn).toBe('es');
    expect((await page('/login', { 'accept-language': 'nl', cookie: 'pp_language=../../etc' })).sentIn).toBe('nl');
    expect((await page('/invitation/abc?code=x&lang=de', { cookie: 'pp_language=es' })).sentIn).toBe('de');
    expect((await page('/login?lang=zz', { 'accept-language': 'zz' })).sentIn).toBe('en-GB');
    expect((await page('/Login/')).sentIn).toBe('en-GB');
  });

  it('are never cached, vary with the cookie and Accept-Language, and their inline script is allowed by its hash', async () => {
    const { res } = await page('/login', { 'accept-language': 'fr' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('vary')?.toLowerCase()).toMatch(/\bcookie, accept-language\b/);
    expect(res.headers.get('content-security-policy')).toContain(`script-src 'self' '${SCRIPT_HASH}'`);
    expect(res.headers.get('content-security-policy')).not.toMatch(/script-src[^;]*unsafe-inline/);
  });

  it('give way to the application where the first render would differ, or where no file was made', async () => {
    for (const [path, headers] of [
      ['/login?ReturnUrl=%2Fconnect%2Fauth', {}],
      ['/invitation/abc', {}],
      ['/invitation/abc?code=x', { 'accept-language': 'fr' }],
      ['/invitation/abc/more?code=x', {}],
      ['/profile', {}],
    ] as const) {
      const { res, sentIn } = await page(path, headers);
      expect(res.status, path).toBe(200);
      expect(sentIn, path).toBeNull();
      expect(res.text, path).toContain('<div id="root"></div>');
    }
  });
});

describe('the site settings in every page, from the first byte', () => {
  // a build whose pages were rendered with the web app's default sales contact, as apps/web/src/prerender/build.ts records it
  const dist = mkdtempSync(join(tmpdir(), 'pp-web-settings-'));
  mkdirSync(join(dist, 'prerendered'));
  const element = '<script type="application/json" id="portal-configuration"></script>';
  writeFileSync(join(dist, 'index.html'), `<!doctype html><head>${element}</head><div id="root"></div>`);
  const rendered = (language: string) =>
    `<!doctype html><head>${element}</head><div id="root" data-prerendered="${language}"><a href="mailto:sales@example.com">sales@example.com</a></div>`;
  const loginFiles = Object.fromEntries(INTERFACE_LANGUAGES.map((l) => [l, `prerendered/login.${l}.html`]));
  for (const language of INTERFACE_LANGUAGES) writeFileSync(join(dist, 'prerendered', `login.${language}.html`), rendered(language));
  writeFileSync(
    join(dist, 'prerendered', 'pages.json'),
    JSON.stringify({
      scriptHashes: [SCRIPT_HASH],
      pages: [{ name: 'login', path: '^/login/?$', needs: [], not: [], files: loginFiles }],
      configuration: { sales_contact_email: 'sales@example.com', privacy_statement_url: 'https://www.nedap.com/privacy-statement/' },
    }),
  );
  let configured: TestPortal;
  beforeAll(async () => (configured = await startPortal({ WEB_DIST_DIR: dist, SALES_CONTACT_EMAIL: 'verkoop@dealer.example' })));
  afterAll(() => configured?.close());

  it('a pre-rendered page names the configured sales contact, and carries the settings for the web app, compressed or not', async () => {
    for (const encoding of ['br', 'gzip', 'identity']) {
      const res = await configured.client().get('/login', { headers: { accept: 'text/html', 'accept-encoding': encoding } });
      expect(res.status).toBe(200);
      expect(res.text).toContain('<a href="mailto:verkoop@dealer.example">verkoop@dealer.example</a>');
      expect(res.text).not.toContain('sales@example.com');
      const json = /<script type="application\/json" id="portal-configuration">([^<]*)<\/script>/.exec(res.text)?.[1];
      expect(JSON.parse(json!)).toMatchObject({ sales_contact_email: 'verkoop@dealer.example' });
    }
  });

  it('so does every other page (index.html), and a page asked for without Accept: text/html, as curl does', async () => {
    const res = await configured.client().get('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toContain('"sales_contact_email":"verkoop@dealer.example"');
    // the API, the provider and SCIM keep answering problems
    for (const path of ['/api/nothing', '/connect/nothing', '/scim/v2/nothing']) {
      const problem = await configured.client().get(path);
      expect(problem.status, path).not.toBe(200);
    }
  });
});
