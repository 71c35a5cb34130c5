import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDirectory } from '../../../web/precompress.js';
import { createOrg } from '../organizations/fixtures.js';
import { startPortal, type TestPortal } from '../support/portal.js';

/**
 * Compression: the web app's files arrive as the build's brotli or gzip copies (hashed assets
 * still immutable), and JSON answers above 1 KB are compressed on the fly; each decodes back to
 * the original bytes.
 */
let portal: TestPortal;
const webDist = mkdtempSync(join(tmpdir(), 'pp-web-compress-'));
mkdirSync(join(webDist, 'assets'));
const script = `export const rows = [${Array.from({ length: 2000 }, (_, i) => `{ id: ${i}, label: 'row number ${i}' }`).join(',\n')}];\n`;
const styles = Array.from({ length: 500 }, (_, i) => `.c${i} { margin: ${i}px; color: #123456; }`).join('\n');
const indexHtml = `<!doctype html><html><head><title>Partner Portal</title><script type="module" src="/assets/app-Bx3k9QaZ.js"></script></head><body>${'<div id="root"></div>'.repeat(100)}</body></html>`;
writeFileSync(join(webDist, 'index.html'), indexHtml);
writeFileSync(join(webDist, 'assets', 'app-Bx3k9QaZ.js'), script);
writeFileSync(join(webDist, 'assets', 'app-Bx3k9QaZ.css'), styles);

beforeAll(async () => {
  await precompressDirectory(webDist);
  portal = await startPortal({ WEB_DIST_DIR: webDist });
});
afterAll(() => portal?.close());

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A request that keeps the bytes as they came over the wire (fetch would decode them). */
function raw(path: string, headers: Record<string, string>): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${portal.url}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function decode(res: RawResponse): string {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(res.body).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(res.body).toString('utf8');
  return res.body.toString('utf8');
}

describe('compression of the web app', () => {
  it.each([
    ['/assets/app-Bx3k9QaZ.js', script, 'javascript'],
    ['/assets/app-Bx3k9QaZ.css', styles, 'text/css'],
  ])('%s arrives as brotli or gzip, decodes to the file, and stays immutable', async (path, original, type) => {
    for (const [accept, expected] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const res = await raw(path, { 'accept-encoding': accept });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(expected);
      expect(res.headers['content-type']).toContain(type);
      expect(String(res.headers.vary).toLowerCase()).toContain('accept-encoding');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.body.length).toBeLessThan(Buffer.byteLength(original) / 3);
      expect(decode(res)).toBe(original);
    }
    const identity = await raw(path, {});
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body.toString('utf8')).toBe(original);
  });

  it('the page of a client route (index.html) arrives compressed too', async () => {
    const res = await raw('/login', { accept: 'text/html', 'accept-encoding': 'br, gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(decode(res)).toBe(indexHtml);
  });
});

describe('compression of JSON answers', () => {
  it('a large tree arrives compressed when accepted, and decodes to the same JSON', async () => {
    const root = { id: portal.rootOrganizationId, path: 'nedap', name: 'Nedap' };
    for (let i = 0; i < 40; i++) await createOrg(portal, root, `Compressed dealer ${String(i).padStart(3, '0')}`);
    const admin = await portal.sessionFor(portal.adminUserId);
    const headers = { 'x-csrf': '1', cookie: admin.cookieHeader() };
    const plain = await raw('/api/organizations/tree', headers);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(10_000);
    for (const [accept, expected] of [
      ['br, gzip', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const res = await raw('/api/organizations/tree', { ...headers, 'accept-encoding': accept });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(expected);
      expect(res.body.length).toBeLessThan(plain.body.length / 4);
      expect(JSON.parse(decode(res))).toEqual(JSON.parse(plain.body.toString('utf8')));
    }
  });

  it('a small answer (under 1 KB) is sent as it is', async () => {
    const res = await raw('/health', { 'accept-encoding': 'br, gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.body.toString('utf8'))).toEqual({ status: 'ok' });
  });
});
