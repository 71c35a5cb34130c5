import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDirectory } from '../../../web/precompress.js';
import { startPortal, type TestPortal } from '../support/portal.js';

/**
 * Browser caching of the web app (apps/server/src/modules/web/static.ts): a file whose name carries
 * the build's content hash is kept for a year without asking again; a page is always checked with
 * the server first, so a new build's page (naming new hashed files) is seen at once; other files
 * (the logo, the login video) for an hour.
 */
let portal: TestPortal;
const webDist = mkdtempSync(join(tmpdir(), 'pp-web-cache-'));
mkdirSync(join(webDist, 'assets'));
const script = `export const rows = [${Array.from({ length: 400 }, (_, i) => `{ id: ${i} }`).join(',')}];\n`;
writeFileSync(
  join(webDist, 'index.html'),
  `<!doctype html><title>Partner Portal</title><script type="module" src="/assets/index-BE5e5D8x.js"></script><div id="root"></div>`,
);
writeFileSync(join(webDist, 'assets', 'index-BE5e5D8x.js'), script);
writeFileSync(join(webDist, 'assets', 'de-0O_b6_Zx.js'), script);
writeFileSync(join(webDist, 'assets', 'login-Culf64oI.css'), '.a { color: red; }\n'.repeat(200));
writeFileSync(join(webDist, 'assets', 'notes.txt'), 'a file without a hash in its name');
writeFileSync(join(webDist, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');

beforeAll(async () => {
  await precompressDirectory(webDist);
  portal = await startPortal({ WEB_DIST_DIR: webDist });
});
afterAll(() => portal?.close());

const cacheControl = async (path: string, headers: Record<string, string> = {}) => {
  const res = await portal.client().get(path, { headers });
  return { status: res.status, cacheControl: res.headers.get('cache-control'), encoding: res.headers.get('content-encoding') };
};

describe('caching of the web app', () => {
  it.each(['/assets/index-BE5e5D8x.js', '/assets/de-0O_b6_Zx.js', '/assets/login-Culf64oI.css'])(
    'keeps the hashed file %s for a year, as it is and compressed',
    async (path) => {
      for (const accept of ['identity', 'gzip', 'br']) {
        const res = await cacheControl(path, { 'accept-encoding': accept });
        expect(res.status).toBe(200);
        expect(res.cacheControl).toBe('public, max-age=31536000, immutable');
      }
    },
  );

  it.each(['/', '/login', '/manage-organization/123', '/index.html'])('has the browser ask again for the page %s', async (path) => {
    for (const accept of ['identity', 'gzip, br']) {
      const res = await cacheControl(path, { accept: 'text/html', 'accept-encoding': accept });
      expect(res.status).toBe(200);
      expect(res.cacheControl).toBe('no-cache');
    }
  });

  it('keeps a file without a content hash for an hour only, in the assets folder as elsewhere', async () => {
    expect(await cacheControl('/assets/notes.txt')).toMatchObject({ status: 200, cacheControl: 'public, max-age=3600' });
    expect(await cacheControl('/logo.svg')).toMatchObject({ status: 200, cacheControl: 'public, max-age=3600' });
  });

  it('does not mark a missing asset as cacheable for a year', async () => {
    const res = await cacheControl('/assets/index-AAAAAAAA.js');
    expect(res.status).toBe(404);
    expect(res.cacheControl ?? '').not.toContain('immutable');
  });
});
