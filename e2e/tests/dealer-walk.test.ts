import { mkdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { ADMIN_EMAIL, type HttpClient } from '@partner-portal/server/test-kit';
import { afterNextFrames, newPage, seriousAxeViolations, whenStill } from '../support/browser.js';
import { invitationLink, openContext, signedIn, startPortal, usePortalAndBrowser } from '../support/portal.js';
import { grid } from '../support/grid.js';

/**
 * The web app as a dealer meets it, in Chromium against the real server: actions on one's own row,
 * focus after every modal, skip link, titles and headings, the user menu, tables at 390, 768 and
 * 1280 px in en-GB, nl and de, the invitee's language, the language picker, guidance after
 * registering, and the forced change of a generated password.
 */
const SHOTS = process.env.E2E_SHOT_DIR ?? '/tmp/pp-dealer-walk/';
mkdirSync(SHOTS, { recursive: true });

const WIDTHS = [390, 768, 1280] as const;
const LANGUAGES = ['en-GB', 'nl', 'de'] as const;
const PASSWORD = 'Sterk-Wachtw00rd!';

const e2e = usePortalAndBrowser();
let admin: HttpClient;
let dealerId: string;
const DEALER = 'Melkveebedrijf Groot-Ammers Noord-Holland B.V.';

/** A context `width` pixels wide, in the language, signed in as the user (the administrator by default; null: nobody). */
async function context(width: number, language = 'en-GB', userId: string | null = e2e.portal.adminUserId): Promise<BrowserContext> {
  const options = { viewport: { width, height: 900 }, ...(language !== 'en-GB' ? { language } : {}) };
  return userId ? signedIn(e2e.browser, e2e.portal, userId, options) : openContext(e2e.browser, e2e.portal, options);
}

/** Invite through the API: the link of the invitation e-mail. */
async function invite(organizationId: string, email: string, language: string): Promise<URL> {
  const before = e2e.portal.smtp.messages.length;
  const res = await admin.post(`/api/organizations/${organizationId}/invitations`, { email_address: email, language_code: language });
  expect(res.status).toBe(201);
  return invitationLink(e2e.portal, email, before);
}

/** Invite through the API and register through the API: a real member of the organization. */
async function member(organizationId: string, email: string, language = 'en'): Promise<void> {
  const link = await invite(organizationId, email, language);
  const accepted = await e2e.portal.client().put(`/api/invitations/${link.pathname.split('/').pop()}/accept`, {
    invitation_code: link.searchParams.get('code'),
    first_name: 'Johannes',
    last_name: 'van der Berg-Hoogeveen',
    language_code: language,
    password: PASSWORD,
    password_confirmation: PASSWORD,
    accept_agreement: true,
  });
  expect(accepted.status).toBe(204);
}

async function settle(page: Page) {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await whenStill(page);
}

async function axe(page: Page, what: string) {
  const violations = await seriousAxeViolations(page);
  expect(
    violations.map((v) => `${v.id} (${v.impact}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    `axe on ${what}`,
  ).toEqual([]);
}

const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}${name}-${page.viewportSize()?.width}.png`, fullPage: true });

/** What has focus, described: tag, accessible label or text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return el ? `${el.tagName.toLowerCase()}:${el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 60) ?? ''}` : 'none';
  });

beforeAll(async () => {
  admin = await e2e.portal.sessionFor(e2e.portal.adminUserId);
  const created = await admin.post('/api/organizations', {
    parent_organization_id: e2e.portal.rootOrganizationId,
    name: DEALER,
    client_ids: ['partner-portal', 'media-library'],
  });
  expect(created.status).toBe(201);
  dealerId = created.body.id;
  await member(dealerId, 'johannes.vanderberg-hoogeveen@melkveebedrijf-groot-ammers.example');
  await member(e2e.portal.rootOrganizationId, 'eva.staff@nedap.example');
  for (const email of ['wilhelmina.schoonhoven@melkveebedrijf-groot-ammers.example', 'kees@dealer.example']) {
    expect((await admin.post(`/api/organizations/${dealerId}/invitations`, { email_address: email, language_code: 'de' })).status).toBe(
      201,
    );
  }
}, 120_000);

describe('own row (issue: actions that cannot work)', () => {
  it('offers no removal and no rights editing on the signed-in user’s own row, and says why', async () => {
    const ctx = await context(1280);
    const { page } = await newPage(ctx);
    await page.goto(`/manage-organization/${e2e.portal.rootOrganizationId}`);
    const remove = page.getByRole('button', { name: `Remove ${ADMIN_EMAIL}` });
    await remove.waitFor();
    expect(await remove.getAttribute('aria-disabled')).toBe('true');
    expect(await remove.getAttribute('aria-label')).toContain('You cannot remove yourself');
    await remove.click({ force: true });
    await afterNextFrames(page);
    expect(await page.getByRole('dialog').count()).toBe(0);
    const rights = page.getByRole('button', { name: `Edit rights of ${ADMIN_EMAIL}` });
    expect(await rights.getAttribute('aria-disabled')).toBe('true');
    await rights.click({ force: true });
    await afterNextFrames(page);
    expect(await page.getByRole('dialog').count()).toBe(0);
    // another member's actions work
    expect(await page.getByRole('button', { name: 'Remove eva.staff@nedap.example' }).getAttribute('aria-disabled')).toBeNull();
    await ctx.close();
  });

  it('shows a modal’s error beside its buttons, in view', async () => {
    const ctx = await context(1280);
    ctx.setDefaultTimeout(10_000);
    const { page } = await newPage(ctx);
    await page.setViewportSize({ width: 1280, height: 560 });
    await page.goto(`/manage-organization/${e2e.portal.rootOrganizationId}`);
    await page.getByRole('button', { name: 'Invite user' }).click();
    const dialog = page.getByRole('dialog', { name: /Invite user to/ });
    await dialog.waitFor();
    await dialog.getByLabel('E-mail address').fill('eva.staff@nedap.example');
    await dialog.getByRole('checkbox', { name: 'Set rights now' }).check();
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    const alert = dialog.getByRole('alert');
    await alert.waitFor();
    await whenStill(page);
    const box = (await alert.boundingBox())!;
    const send = (await dialog.getByRole('button', { name: 'Send invitation' }).boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(560);
    // directly above the buttons
    expect(send.y - (box.y + box.height)).toBeGreaterThanOrEqual(0);
    expect(send.y - (box.y + box.height)).toBeLessThan(40);
    await shot(page, 'invite-error');
    await ctx.close();
  });
});

describe('focus, skip link, titles and the user menu', () => {
  it('returns focus to the opener after Escape, Cancel, × and a successful submit', async () => {
    const ctx = await context(1280);
    ctx.setDefaultTimeout(10_000);
    const { page } = await newPage(ctx);
    await page.goto(`/manage-organization/${dealerId}`);
    const invite = page.getByRole('button', { name: 'Invite user' });
    await invite.waitFor();
    const dialog = () => page.getByRole('dialog');
    const closeWith = async (how: 'escape' | 'cancel' | 'x') => {
      await dialog().waitFor();
      await whenStill(page);
      if (how === 'escape') await page.keyboard.press('Escape');
      else if (how === 'cancel') await dialog().getByRole('button', { name: 'Cancel' }).click();
      else await dialog().getByRole('button', { name: 'Close' }).click();
      await dialog().waitFor({ state: 'detached' });
    };
    for (const how of ['escape', 'cancel', 'x'] as const) {
      await invite.focus();
      await page.keyboard.press('Enter');
      await closeWith(how);
      await expect.poll(() => focused(page), { message: `invite, ${how}` }).toBe('button:Invite user');
    }
    const rights = page.getByRole('button', { name: /^Edit rights of johannes/ });
    for (const how of ['escape', 'cancel', 'x'] as const) {
      await rights.focus();
      await page.keyboard.press('Enter');
      await dialog().getByRole('button', { name: 'Save' }).waitFor();
      await closeWith(how);
      await expect.poll(() => focused(page), { message: `rights, ${how}` }).toMatch(/^button:Edit rights of johannes/);
    }
    // a successful submit
    await invite.focus();
    await page.keyboard.press('Enter');
    await dialog().getByLabel('E-mail address').fill('new.dealer@dealer.example');
    await dialog().getByRole('button', { name: 'Send invitation' }).click();
    await dialog().waitFor({ state: 'detached' });
    await expect.poll(() => focused(page), { message: 'invite, sent' }).toBe('button:Invite user');
    await rights.focus();
    await page.keyboard.press('Enter');
    await dialog().getByRole('button', { name: 'Save' }).click();
    await dialog().waitFor({ state: 'detached' });
    await expect.poll(() => focused(page), { message: 'rights, saved' }).toMatch(/^button:Edit rights of johannes/);
    await ctx.close();
  });

  it('has a skip link first, a title per route, and moves focus to the heading after navigation', async () => {
    const ctx = await context(1280);
    ctx.setDefaultTimeout(10_000);
    const { page } = await newPage(ctx);
    await page.goto('/');
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Welcome, Portal');
    const homeTitle = await page.title();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('a:Skip to main content');
    await page.keyboard.press('Enter');
    expect(await focused(page)).toMatch(/^h1:/);

    const menuButton = page.getByRole('button', { name: /User menu of/ });
    await menuButton.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await menu.waitFor();
    await expect.poll(() => focused(page)).toBe('a:Profile');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/profile');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await expect.poll(() => focused(page)).toMatch(/^h1:/);
    const profileTitle = await page.title();
    expect(profileTitle).not.toBe(homeTitle);
    expect(profileTitle).toMatch(/Profile/);
    // the open menu, checked by axe (running axe and taking the picture move focus out of the menu,
    // so this comes after the keyboard walk)
    await menuButton.focus();
    await page.keyboard.press('Enter');
    await menu.waitFor();
    await expect.poll(() => focused(page)).toBe('a:Profile');
    await whenStill(page);
    await axe(page, 'open user menu');
    await shot(page, 'user-menu');
    await page.keyboard.press('Escape');
    await page.goto('/change-password');
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.title()).toMatch(/Change password/);
    await ctx.close();
  });
});

describe('tables on phones, tablets and desktops', () => {
  for (const [language, width] of grid(LANGUAGES, WIDTHS)) {
    it(`has no sideways overflow, whole badges and reachable actions at ${width} px in ${language}`, async () => {
      const ctx = await context(width, language);
      ctx.setDefaultTimeout(10_000);
      const { page, watch } = await newPage(ctx);
      await page.goto(`/manage-organization/${dealerId}`);
      await page.getByRole('heading', { level: 1, name: DEALER }).waitFor();
      await page.locator('.mantine-Badge-root').first().waitFor();
      await settle(page);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, 'page overflow').toBeLessThanOrEqual(0);
      const cut = await page.evaluate(() =>
        Array.from(document.querySelectorAll<HTMLElement>('.mantine-Badge-root, .mantine-Badge-label'))
          .filter((el) => el.scrollWidth > el.clientWidth + 1)
          .map((el) => el.textContent),
      );
      expect(cut, 'truncated badges').toEqual([]);
      // every row action is on screen, without scrolling sideways
      const actions = await page.evaluate(() =>
        Array.from(document.querySelectorAll<HTMLElement>('#org-users-table button, #org-invitations-table button')).map((b) => {
          const r = b.getBoundingClientRect();
          return { right: r.right, left: r.left, label: b.getAttribute('aria-label') };
        }),
      );
      expect(actions.length).toBeGreaterThan(0);
      for (const a of actions) expect(a.right, `${a.label}`).toBeLessThanOrEqual(width);
      // addresses break only after '@' or before '.', never inside a word or at a hyphen
      const broken = await page.evaluate(() => {
        const bad: string[] = [];
        for (const address of Array.from(document.querySelectorAll<HTMLElement>('[data-address]'))) {
          const walker = document.createTreeWalker(address, NodeFilter.SHOW_TEXT);
          let before = '';
          let lastTop: number | null = null;
          for (let n = walker.nextNode(); n; n = walker.nextNode()) {
            const t = n.textContent ?? '';
            for (let i = 0; i < t.length; i++) {
              const r = document.createRange();
              r.setStart(n, i);
              r.setEnd(n, i + 1);
              const top = Math.round(r.getBoundingClientRect().top);
              if (lastTop !== null && top > lastTop + 2 && t[i] !== '.' && !before.endsWith('@'))
                bad.push(`${address.textContent} after "${before}"`);
              lastTop = top;
              before += t[i];
            }
          }
        }
        return bad;
      });
      expect(broken, 'addresses broken mid-word').toEqual([]);
      await axe(page, `manage page ${width} ${language}`);
      expect(watch.problems).toEqual([]);
      await shot(page, `manage-${language}`);
      await ctx.close();
    });
  }

  it('counts in the singular and plural', async () => {
    const ctx = await context(1280, 'nl');
    const { page } = await newPage(ctx);
    await page.goto(`/manage-organization/${dealerId}`);
    await page.getByRole('heading', { level: 1, name: DEALER }).waitFor();
    await page.getByText('(1 gebruiker)').waitFor();
    await page.getByText(/\(\d+ uitnodigingen\)/).waitFor();
    await ctx.close();
  });
});

describe('the invitee’s language and the language picker', () => {
  it('opens a Dutch invitation in Dutch for a new visitor, and offers all six languages', async () => {
    const email = 'anna.jansen@dealer-noord.example';
    const link = await invite(dealerId, email, 'nl');
    for (const width of WIDTHS) {
      const ctx = await context(width, 'en-GB', null);
      ctx.setDefaultTimeout(10_000);
      const { page, watch } = await newPage(ctx);
      await page.goto(`${link.pathname}${link.search}`);
      await page.getByRole('heading', { level: 1, name: 'Welkom bij het Partner Portal' }).waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('nl');
      const picker = page.getByRole('combobox', { name: 'Taal', exact: true });
      const options = await picker.locator('option').allTextContents();
      expect(options).toEqual(['English', 'Nederlands', 'Deutsch', 'Français', 'Español', 'Português (Brasil)']);
      await settle(page);
      await axe(page, `invitation ${width}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
      await shot(page, 'invitation-nl');
      expect(watch.problems).toEqual([]);
      if (width === 1280) {
        // the visitor's own choice wins over the invitation's
        await picker.selectOption('pt-BR');
        await page.getByRole('combobox', { name: 'Idioma', exact: true }).waitFor();
        expect(await page.evaluate(() => document.documentElement.lang)).toBe('pt-BR');
        await page.reload();
        await page.getByRole('combobox', { name: 'Idioma', exact: true }).waitFor();
        expect(await page.evaluate(() => document.documentElement.lang)).toBe('pt-BR');
      }
      await ctx.close();
    }
  });

  it('has the picker on the login page, and translates the tiles', async () => {
    for (const width of WIDTHS) {
      const ctx = await context(width, 'en-GB', null);
      ctx.setDefaultTimeout(10_000);
      const { page } = await newPage(ctx);
      await page.goto('/login');
      const picker = page.getByRole('combobox', { name: 'Language', exact: true });
      await picker.waitFor();
      expect(await picker.locator('option').count()).toBe(6);
      await picker.selectOption('de');
      await page.getByRole('button', { name: 'Weiter' }).waitFor();
      await settle(page);
      await axe(page, `login ${width}`);
      await shot(page, 'login-de');
      await ctx.close();
    }
    const ctx = await context(1280, 'nl');
    const { page } = await newPage(ctx);
    await page.goto('/');
    await page.getByRole('link', { name: /Gebruikersbeheer/ }).waitFor();
    await page.getByRole('link', { name: /Mediabibliotheek/ }).waitFor();
    await ctx.close();
  });
});

describe('after registering', () => {
  it('lands on the login page with the address filled in and says the account is ready; the reopened invitation links to login', async () => {
    const email = 'lisa.bakker@dealer.example';
    const link = await invite(dealerId, email, 'en');
    const ctx = await context(768, 'en-GB', null);
    ctx.setDefaultTimeout(10_000);
    const { page } = await newPage(ctx);
    await page.goto(`${link.pathname}${link.search}`);
    await page.locator('input[name="first_name"]').fill('Lisa');
    await page.locator('input[name="last_name"]').fill('Bakker');
    await page.locator('input[name="password"]').fill(PASSWORD);
    // the hints do not cover the confirm field: it can be clicked while they show
    await page.locator('input[name="password_confirmation"]').click({ trial: true, timeout: 2000 });
    await page.locator('input[name="password_confirmation"]').fill(PASSWORD);
    await page.locator('input[name="accept_agreement"]').check();
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByText('Your account is ready').waitFor();
    expect(await page.getByLabel('E-mail address').inputValue()).toBe(email);
    await settle(page);
    await axe(page, 'login after registering');
    await shot(page, 'login-registered');
    await page.goto(`${link.pathname}${link.search}`);
    await page.getByRole('link', { name: 'Go to login' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    expect(await page.getByLabel('E-mail address').inputValue()).toBe(email);
    await ctx.close();
  });
});

describe('first run', () => {
  it('sends an administrator with a generated password to change it first, with the reason', async () => {
    const { rows } = await e2e.portal.services.db.query<{ id: string }>(
      `INSERT INTO users (email, first_name, last_name, language_code, password_hash, terms_accepted_at, must_change_password)
       VALUES ('fresh.admin@example.com', 'Administrator', '', 'en', NULL, now(), true) RETURNING id`,
    );
    const ctx = await context(1280, 'en-GB', rows[0]!.id);
    const { page } = await newPage(ctx);
    await page.goto('/');
    await page.waitForURL((url) => url.pathname === '/change-password');
    await page.getByText('Choose your own password').waitFor();
    await settle(page);
    await axe(page, 'forced password change');
    await shot(page, 'change-password-required');
    await ctx.close();
  });

  it('gives the manage page of a fresh install a first hint', async () => {
    const fresh = await startPortal();
    try {
      const ctx = await signedIn(e2e.browser, fresh, fresh.adminUserId, { viewport: { width: 1280, height: 900 } });
      const { page } = await newPage(ctx);
      await page.goto(`/manage-organization/${fresh.rootOrganizationId}`);
      await page.getByText('Getting started').waitFor({ timeout: 10_000 });
      await page.getByRole('button', { name: 'Export members' }).waitFor();
      await settle(page);
      await axe(page, 'fresh manage page');
      await shot(page, 'manage-fresh');
      await ctx.close();
    } finally {
      await fresh.close();
    }
  });
});
