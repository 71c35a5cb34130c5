import { Secret, TOTP } from 'otpauth';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { createMember, createOrg, createUser, rights, setPassword, type HttpClient, type Org } from '@partner-portal/server/test-kit';
import { newPage, whenStill } from '../support/browser.js';
import { openContext, screenshot, signedIn, usePortalAndBrowser } from '../support/portal.js';
import { webText } from '../support/texts.js';
import { someOf } from '../support/grid.js';

/**
 * Where the keyboard focus lands after an action that removes or replaces what had it: never at
 * the top of the page, but on the new item, the control that opened a dialog, or a heading. And a
 * focused field shows a ring of its own, also while it shows an error.
 */
// on localhost, where the browser offers passkeys (the second-factor step then offers a choice)
const e2e = usePortalAndBrowser({}, { publicHost: 'localhost' });
let adminApi: HttpClient;
let root: Org;
let dealer: Org;
let contexts: BrowserContext[] = [];

beforeAll(async () => {
  adminApi = await e2e.portal.sessionFor(e2e.portal.adminUserId);
  const { rows } = await e2e.portal.services.db.query<Org>('SELECT id, path, name FROM organizations WHERE id = $1', [
    e2e.portal.rootOrganizationId,
  ]);
  root = rows[0]!;
  dealer = await createOrg(e2e.portal, root, 'Dealer Focus', { canCreate: true });
});
afterEach(async () => {
  for (const context of contexts) await context.close();
  contexts = [];
});

async function pageIn(context: BrowserContext): Promise<Page> {
  contexts.push(context);
  const { page } = await newPage(context);
  page.setDefaultTimeout(30_000);
  return page;
}

/** The focused element: its tag, its text and its accessible name's attribute, and its test id. */
function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    return {
      tag: el?.tagName.toLowerCase() ?? '',
      text: el === document.body ? '(the page)' : (el?.textContent ?? '').trim().slice(0, 120),
      testId: el?.getAttribute('data-testid') ?? null,
    };
  });
}

const headingOf = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });

async function adminPage(language: string, viewport: { width: number; height: number }): Promise<Page> {
  const page = await pageIn(await signedIn(e2e.browser, e2e.portal, adminApi, { language, viewport }));
  return page;
}

describe('the manage page', () => {
  for (const language of someOf(['pt-BR', 'nl'])) {
    it(`creating a sub-organization focuses its heading, deleting one focuses its parent's (${language}, 1280 px)`, async () => {
      const page = await adminPage(language, { width: 1280, height: 900 });
      await page.goto(`/manage-organization/${dealer.id}`);
      await headingOf(page, dealer.name).waitFor();
      const name = `Filial ${language}`;
      await page.getByRole('button', { name: webText(language, 'org_create_sub_organization'), exact: true }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('textbox', { name: webText(language, 'org_name') }).fill(name);
      await dialog.getByRole('button', { name: webText(language, 'org_create'), exact: true }).click();
      await headingOf(page, name).waitFor();
      await expect.poll(() => focused(page)).toMatchObject({ tag: 'h1', text: name });

      await page.getByRole('button', { name: webText(language, 'org_delete_organization'), exact: true }).click();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: webText(language, 'org_delete'), exact: true })
        .click();
      await headingOf(page, dealer.name).waitFor();
      await expect.poll(() => focused(page)).toMatchObject({ tag: 'h1', text: dealer.name });
    });
  }

  it('Escape on the second-factor-policy dialog leaves the focus on the button that opened it (pt-BR, 390 px)', async () => {
    const language = 'pt-BR';
    const page = await adminPage(language, { width: 390, height: 800 });
    await page.goto(`/manage-organization/${dealer.id}`);
    const require = page.getByRole('button', { name: webText(language, 'sfp_require'), exact: true });
    await require.click();
    await page.getByRole('dialog').waitFor();
    await whenStill(page);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await expect.poll(() => focused(page)).toMatchObject({ tag: 'button', text: webText(language, 'sfp_require') });
  });

  for (const [language, width] of [
    ['pt-BR', 390],
    ['nl', 768],
  ] as const) {
    it(`choosing an organization in the folded tree focuses its heading (${language}, ${width} px)`, async () => {
      const page = await adminPage(language, { width, height: 900 });
      await page.goto(`/manage-organization/${root.id}`);
      await headingOf(page, root.name).waitFor();
      await page.getByRole('button', { name: webText(language, 'org_tree_show') }).click();
      await page.getByRole('treeitem', { name: dealer.name }).click();
      await headingOf(page, dealer.name).waitFor();
      await expect.poll(() => focused(page)).toMatchObject({ tag: 'h1', text: dealer.name });
      await screenshot(page, `focus-tree-choice-${language}-${width}`);
    });
  }

  for (const language of someOf(['pt-BR', 'de'])) {
    it(`a bulk removal in the access review focuses the access review's heading (${language}, 1280 px)`, async () => {
      const branch = await createOrg(e2e.portal, dealer, `Branch ${language}`);
      for (const label of ['sleepy', 'dozy']) await createMember(e2e.portal, branch, label, rights());
      const page = await adminPage(language, { width: 1280, height: 900 });
      await page.goto(`/manage-organization/${branch.id}#access-review`);
      const review = page.getByTestId('access-review');
      await review.getByRole('combobox').selectOption('90');
      await review.getByTestId('inactive-member').first().waitFor();
      await review.getByRole('checkbox', { name: webText(language, 'adm_select_all') }).check();
      await review.getByRole('button', { name: webText(language, 'adm_remove_selected') }).click();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: webText(language, 'adm_remove'), exact: true })
        .click();
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      await review.getByTestId('inactive-member').first().waitFor({ state: 'detached' });
      await expect.poll(() => focused(page)).toMatchObject({ tag: 'h2', text: webText(language, 'adm_access_review_title') });
    });
  }
});

/** With the session's sign-in an hour old, the control asks "Confirm it is you" first; Escape closes that. */
async function escapeConfirmIdentity(page: Page, userId: string, control: Locator): Promise<void> {
  await e2e.portal.services.db.query("UPDATE sessions SET authenticated_at = now() - interval '1 hour' WHERE user_id = $1", [userId]);
  await control.click();
  await page.getByRole('dialog').waitFor();
  await whenStill(page);
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'detached' });
}

describe('the sign-in security of the profile', () => {
  for (const language of someOf(['pt-BR', 'fr'])) {
    it(`"Set up an authenticator app" focuses the set-up; Escape on "Confirm it is you" returns to the button (${language})`, async () => {
      const user = await createUser(e2e.portal, { firstName: 'Focus' });
      const page = await pageIn(
        await signedIn(e2e.browser, e2e.portal, user.id, { language, viewport: { width: 390, height: 800 }, reducedMotion: false }),
      );
      await page.goto('/profile');
      const setUp = page.getByRole('button', { name: webText(language, 'totp_set_up'), exact: true });
      await escapeConfirmIdentity(page, user.id, setUp);
      await expect.poll(() => focused(page)).toMatchObject({ tag: 'button', text: webText(language, 'totp_set_up') });

      await e2e.portal.services.db.query('UPDATE sessions SET authenticated_at = now() WHERE user_id = $1', [user.id]);
      await setUp.click();
      await page.getByTestId('totp-enrolment').waitFor();
      await expect.poll(() => focused(page)).toMatchObject({ testId: 'totp-enrolment' });
    });
  }

  for (const language of someOf(['pt-BR', 'nl'])) {
    it(`Escape on "Confirm it is you", opened by removing the app, returns to the remove button (${language})`, async () => {
      const user = await createUser(e2e.portal, { firstName: 'Focus' });
      const client = await e2e.portal.sessionFor(user.id);
      const started = await client.post('/api/factors/totp');
      const code = new TOTP({ secret: Secret.fromBase32(started.body.secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate();
      expect((await client.post('/api/factors/totp/confirm', { code })).status).toBe(200);
      const page = await pageIn(
        await signedIn(e2e.browser, e2e.portal, user.id, { language, viewport: { width: 1280, height: 900 }, reducedMotion: false }),
      );
      await page.goto('/profile');
      const remove = page.getByRole('button', { name: webText(language, 'totp_remove'), exact: true });
      await remove.waitFor();
      await escapeConfirmIdentity(page, user.id, remove);
      await expect.poll(() => focused(page)).toMatchObject({ tag: 'button', text: webText(language, 'totp_remove') });
    });
  }
});

describe('the sign-in that must set up a second factor', () => {
  for (const language of someOf(['pt-BR', 'es'])) {
    it(`focuses the step "Set up a second factor", then the app's set-up (${language}, 390 px)`, async () => {
      const strict = await createOrg(e2e.portal, dealer, `Strict ${language}`);
      expect((await adminApi.put(`/api/organizations/${strict.id}/second-factor-policy`, { required: true })).status).toBe(200);
      const member = await createMember(e2e.portal, strict, 'careful', rights());
      await setPassword(e2e.portal, member.userId, 'Sterk-Wachtw00rd!');
      const page = await pageIn(await openContext(e2e.browser, e2e.portal, { language, viewport: { width: 390, height: 800 } }));
      await page.goto('/login');
      await page.locator('input[name="email"]').fill(member.email);
      await page.locator('input[name="email"]').press('Enter');
      await page.locator('input[name="password"]').fill('Sterk-Wachtw00rd!');
      await page.locator('input[name="password"]').press('Enter');
      await page.getByText(webText(language, 'enrol_title'), { exact: true }).waitFor();
      await expect.poll(() => focused(page)).toMatchObject({ text: webText(language, 'enrol_title') });

      await page.getByRole('button', { name: webText(language, 'enrol_totp') }).click();
      await page.getByTestId('totp-enrolment').waitFor();
      await expect.poll(() => focused(page)).toMatchObject({ testId: 'totp-enrolment' });
    });
  }
});

describe('a focused field', () => {
  for (const language of someOf(['pt-BR', 'nl'])) {
    it(`shows a focus ring of its own, also while it shows an error (${language})`, async () => {
      const page = await pageIn(await openContext(e2e.browser, e2e.portal, { language }));
      await page.goto('/login');
      const email = page.locator('input[name="email"]');
      await email.waitFor();
      // the field's outline and shadow unfocused, then focused: they differ, with a 2 px ring
      const expectRing = async (state: string) => {
        const ring = () =>
          email.evaluate((el) => {
            const style = getComputedStyle(el);
            return { outline: `${style.outlineStyle} ${style.outlineWidth}`, offset: style.outlineOffset, shadow: style.boxShadow };
          });
        await page.locator('body').click({ position: { x: 5, y: 5 } });
        const unfocused = await ring();
        await email.focus();
        const withFocus = await ring();
        expect(withFocus, state).not.toEqual(unfocused);
        expect(withFocus.outline, state).toBe('solid 2px');
      };
      await expectRing('without an error');
      await email.press('Enter');
      await page.getByText(webText(language, 'fill_all_required_fields')).waitFor();
      await expectRing('with an error');
      await screenshot(page, `focus-ring-error-${language}`);
    });
  }
});
