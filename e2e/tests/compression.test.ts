import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Response } from 'playwright-core';
import { DEFAULT_WEB_DIST } from '@partner-portal/server/test-kit';
import { open, openContext, usePortalAndBrowser } from '../support/portal.js';

/**
 * The built web app in Chromium: its scripts and styles arrive as the build's brotli copies
 * (Chromium accepts br), hashed assets immutable, and the page still renders (decoded right).
 */
const e2e = usePortalAndBrowser();

describe('compression of the built web app', () => {
  it('the login page’s scripts and styles arrive in brotli and the page renders', async () => {
    const context = await openContext(e2e.browser, e2e.portal);
    const assets: Response[] = [];
    context.on('response', (response) => {
      if (new URL(response.url()).pathname.startsWith('/assets/')) assets.push(response);
    });
    const { page } = await open(context, '/login');
    await page.getByRole('heading', { level: 1, name: 'Partner Portal' }).waitFor();
    const dist = e2e.portal.config.WEB_DIST_DIR ?? DEFAULT_WEB_DIST;
    const scripts = assets.filter((r) => /\.(js|css)$/.test(new URL(r.url()).pathname));
    expect(scripts.length).toBeGreaterThan(0);
    let compressed = 0;
    for (const response of scripts) {
      const path = new URL(response.url()).pathname;
      const headers = await response.allHeaders();
      expect(headers['cache-control'], path).toBe('public, max-age=31536000, immutable');
      // every file the build compressed (1 KB or more) is sent as its brotli copy
      if (existsSync(join(dist, `${path}.br`))) {
        expect(headers['content-encoding'], path).toBe('br');
        compressed++;
      }
    }
    expect(compressed).toBeGreaterThan(0);
    await context.close();
  });
});
