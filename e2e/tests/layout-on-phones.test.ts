import { mkdirSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createOrg, createUser, type Org } from '@partner-portal/server/test-kit';
import { axeProblems, whenStill } from '../support/browser.js';
import { rootOrganization } from '../support/organizations.js';
import { open, openContext, signedIn, usePortalAndBrowser } from '../support/portal.js';
import { webText } from '../support/texts.js';

/**
 * Layout on phones and with long lists: names and addresses shown whole or with their full text at
 * 390 px, the tree item's tooltip naming its organization, a long invitations list paged, the
 * portal's own administration tile first on the home page, and the tree panel fitting its rows.
 */
const e2e = usePortalAndBrowser();
const PHONE = { width: 390, height: 844 };
const TABLET = { width: 768, height: 1000 };
const DESKTOP = { width: 1280, height: 900 };
const SHOTS = '/tmp/shots-low-b/';
mkdirSync(SHOTS, { recursive: true });

let dealer: Org;

/** A text of this file's own group of the organization page's texts (layoutOnPhones). */
const pagingText = (language: string, key: string): string =>
  (
    JSON.parse(readFileSync(new URL(`../../apps/web/src/features/organizations/locales/${language}.json`, import.meta.url), 'utf8')) as {
      layoutOnPhones: Record<string, string>;
    }
  ).layoutOnPhones[key]!;

beforeAll(async () => {
  const root = await rootOrganization(e2e.portal);
  dealer = await createOrg(e2e.portal, root, 'Concessionária Agropecuária do Vale do Jequitinhonha');
  const list = await createOrg(e2e.portal, root, 'Long list dealer');
  await e2e.portal.services.db.query(
    `INSERT INTO invitations (organization_id, email, code_hash, expires_at)
     SELECT $1, 'invitee-' || lpad(i::text, 3, '0') || '@long-list.example.com', 'unused-' || i, now() + interval '7 days'
     FROM generate_series(1, 254) i`,
    [list.id],
  );
});

const shot = async (page: Page, name: string) => {
  await whenStill(page);
  await page.screenshot({ path: `${SHOTS}${name}.png`, fullPage: false });
};

/** Whether a text lies wholly inside the button around it: nothing cut off sideways or below. */
const shownWhole = (page: Page, selector: string) =>
  page.locator(selector).evaluate((element) => {
    const text = element.getBoundingClientRect();
    const button = element.closest('button')!.getBoundingClientRect();
    return text.left >= button.left && text.right <= button.right && text.top >= button.top && text.bottom <= button.bottom;
  });

describe.each(['pt-BR', 'de'])('layout on phones (%s)', (language) => {
  it('shows the whole user name in the header at 390 px, or names it in full as its accessible name and title', async () => {
    const user = await createUser(e2e.portal, { firstName: 'Maria Fernanda' });
    const fullName = 'Maria Fernanda de Albuquerque Cavalcanti';
    await e2e.portal.services.db.query(`UPDATE users SET last_name = 'de Albuquerque Cavalcanti' WHERE id = $1`, [user.id]);
    const context = await signedIn(e2e.browser, e2e.portal, user.id, { viewport: PHONE, language });
    const { page } = await open(context, '/');
    const button = page.getByRole('button', { name: webText(language, 'user_menu_label').replace('{{name}}', fullName) });
    await button.waitFor();
    // a long name wraps; what does not fit in two lines is there in full as the title
    expect(await button.getAttribute('title')).toBe(fullName);
    expect(await button.locator('[data-user-name]').textContent()).toBe(fullName);
    await shot(page, `header-${language}-390`);
    expect(await axeProblems(page)).toEqual([]);
    await context.close();
  });

  it('shows the whole address on the login step 2 at 390 px, with its full text as a title', async () => {
    const context = await openContext(e2e.browser, e2e.portal, { viewport: PHONE, language });
    const { page } = await open(context, '/login');
    const email = 'maria.fernanda.albuquerque@concessionaria-agropecuaria.example.com.br';
    await page.getByLabel(webText(language, 'email_address')).fill(email);
    await page.getByRole('button', { name: webText(language, 'next') }).click();
    const back = page.getByRole('button', { name: webText(language, 'change_email_address').replace('{{email}}', email) });
    await back.waitFor();
    expect(await back.getAttribute('title')).toBe(email);
    expect(await shownWhole(page, '[data-login-address]')).toBe(true);
    await shot(page, `login-address-${language}-390`);
    expect(await axeProblems(page)).toEqual([]);
    await context.close();
  });

  it("names the organization in the tree item's tooltip at 1280 px", async () => {
    const context = await signedIn(e2e.browser, e2e.portal, e2e.portal.adminUserId, { viewport: DESKTOP, language });
    const { page } = await open(context, `/manage-organization/${dealer.id}`);
    const item = page.getByRole('treeitem', { name: dealer.name });
    await item.waitFor();
    expect(await item.getAttribute('title')).toContain(dealer.name);
    await context.close();
  });

  it('pages a long invitations list instead of showing all 254 at once (390 px)', async () => {
    const context = await signedIn(e2e.browser, e2e.portal, e2e.portal.adminUserId, { viewport: PHONE, language });
    const { rows } = await e2e.portal.services.db.query<{ id: string }>(`SELECT id FROM organizations WHERE name = 'Long list dealer'`);
    const { page } = await open(context, `/manage-organization/${rows[0]!.id}`);
    const invitations = page.locator('#org-invitations-table');
    await invitations.getByText('invitee-001@').waitFor();
    await page
      .locator('section[aria-labelledby="org-invitations-heading"]')
      .getByRole('button', { name: webText(language, 'org_view_all') })
      .click();
    await invitations.getByText('invitee-050@').waitFor();
    expect(await invitations.locator('li').count()).toBe(50);
    expect(await invitations.getByText('invitee-051@').count()).toBe(0);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(height).toBeLessThan(15_000);
    const pages = page.getByRole('navigation', { name: pagingText(language, 'pages') });
    await pages.getByRole('button', { name: pagingText(language, 'page').replace('{{page}}', '6') }).click();
    await invitations.getByText('invitee-254@').waitFor();
    expect(await invitations.locator('li').count()).toBe(4);
    await pages.scrollIntoViewIfNeeded();
    await shot(page, `invitations-paged-${language}-390`);
    expect(await axeProblems(page)).toEqual([]);
    await context.close();
  });

  it("puts the portal's own administration tile first on the administrator's home page at 390 px", async () => {
    const context = await signedIn(e2e.browser, e2e.portal, e2e.portal.adminUserId, { viewport: PHONE, language });
    const { page } = await open(context, '/');
    const tiles = page.getByRole('list', { name: webText(language, 'applications') });
    await tiles.getByRole('link').first().waitFor();
    expect(await tiles.locator('li').first().getByRole('link').getAttribute('href')).toMatch(/^\/manage-organization\//);
    await shot(page, `home-${language}-390`);
    expect(await axeProblems(page)).toEqual([]);
    await context.close();
  });

  it('fits the tree panel to its rows at 768 px on the manage page', async () => {
    const context = await signedIn(e2e.browser, e2e.portal, e2e.portal.adminUserId, { viewport: TABLET, language });
    const { page } = await open(context, `/manage-organization/${dealer.id}`);
    await page.getByRole('button', { name: webText(language, 'org_tree_show') }).click();
    const tree = page.getByRole('tree');
    await tree.getByRole('treeitem', { name: dealer.name }).waitFor();
    await whenStill(page);
    // no empty space below the rows: the tree is no taller than they are
    const { tree: treeHeight, rows } = await tree.evaluate((element) => ({
      tree: element.clientHeight,
      rows: (element.firstElementChild as HTMLElement).offsetHeight,
    }));
    expect(treeHeight).toBeLessThanOrEqual(rows);
    await shot(page, `tree-${language}-768`);
    expect(await axeProblems(page)).toEqual([]);
    await context.close();
  });
});
