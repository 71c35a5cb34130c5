import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { axeProblems, newPage } from '../support/browser.js';
import { signedIn, usePortalAndBrowser } from '../support/portal.js';

/**
 * The side tree with 10,000 organizations: it loads, draws only the rows in view, and
 * filtering stays within 50 ms per keystroke.
 */
const e2e = usePortalAndBrowser();
let context: BrowserContext;

beforeAll(async () => {
  const db = e2e.portal.services.db;
  const root = await db.query<{ path: string }>('SELECT path FROM organizations WHERE id = $1', [e2e.portal.rootOrganizationId]);
  const rootPath = root.rows[0]!.path;
  await db.query(
    `INSERT INTO organizations (parent_id, name, path, depth, can_create_sub_organization, sub_organization_can_have_children)
     SELECT $1::uuid, 'Partner ' || lpad(i::text, 3, '0'), $2 || '/partner-' || lpad(i::text, 3, '0'), 1, true, false FROM generate_series(1, 100) i`,
    [e2e.portal.rootOrganizationId, rootPath],
  );
  await db.query(
    `INSERT INTO organizations (parent_id, name, path, depth, can_create_sub_organization, sub_organization_can_have_children)
     SELECT p.id, 'Dealer ' || substr(p.name, 9) || '-' || lpad(j::text, 2, '0'), p.path || '/dealer-' || lpad(j::text, 2, '0'), 2, false, false
     FROM organizations p CROSS JOIN generate_series(1, 99) j WHERE p.parent_id = $1::uuid`,
    [e2e.portal.rootOrganizationId],
  );
  context = await signedIn(e2e.browser, e2e.portal, e2e.portal.adminUserId);
});
afterAll(async () => {
  await context?.close();
});

describe('the side tree at scale', () => {
  it('shows 10,000 organizations, drawing only the rows in view, and filters within 50 ms per keystroke', async () => {
    const { page, watch } = await newPage(context);
    const count = await e2e.portal.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM organizations');
    expect(count.rows[0]!.n).toBeGreaterThanOrEqual(10_000);
    await page.goto(`/manage-organization/${e2e.portal.rootOrganizationId}`);
    await page.getByRole('treeitem', { name: 'Partner 001' }).waitFor({ timeout: 30_000 });
    // open a partner: its 99 dealers join the rows, only those in view are in the DOM
    await page.getByRole('treeitem', { name: 'Partner 001' }).click();
    await page.getByRole('heading', { level: 1, name: 'Partner 001' }).waitFor();
    const tree = page.getByRole('tree', { name: 'Organizations' });
    await tree.focus();
    await page.keyboard.press('ArrowRight');
    await page.getByRole('treeitem', { name: 'Dealer 001-01' }).waitFor();
    expect(await page.getByRole('treeitem').count()).toBeLessThan(80);

    // each keystroke: set the filter and let React render it; measured inside the page
    const timings = await page.getByLabel('Filter organizations').evaluate(async (element) => {
      const input = element as HTMLInputElement;
      input.focus();
      const result: number[] = [];
      const texts = ['d', 'de', 'dea', 'deal', 'deale', 'dealer', 'dealer ', 'dealer 0', 'dealer 05', 'dealer 050-9'];
      const type = async (text: string) => {
        input.select();
        const started = performance.now();
        // a real input event, as typing gives, handled and rendered by React synchronously
        document.execCommand('insertText', false, text);
        const took = performance.now() - started;
        await new Promise((resolve) => requestAnimationFrame(() => resolve(null)));
        return took;
      };
      // each keystroke three times (from the previous text), the best of three: a loaded test
      // machine's scheduling noise is not the page's cost
      for (let k = 0; k < texts.length; k++) {
        let best = Infinity;
        for (let attempt = 0; attempt < 3; attempt++) {
          if (k > 0) await type(texts[k - 1]!);
          else await type('x');
          best = Math.min(best, await type(texts[k]!));
        }
        result.push(best);
      }
      return result;
    });
    const sorted = [...timings].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    console.log('filter keystroke timings (ms):', timings.map((t) => Math.round(t)).join(', '));
    expect(median).toBeLessThan(20);
    expect(Math.max(...timings)).toBeLessThan(50);
    await page.getByRole('treeitem', { name: 'Dealer 050-90' }).waitFor();
    await page.getByRole('treeitem', { name: 'Dealer 050-90' }).click();
    await page.getByRole('heading', { level: 1, name: 'Dealer 050-90' }).waitFor();
    expect(await axeProblems(page)).toEqual([]);
    expect(watch.problems).toEqual([]);
  });
});
