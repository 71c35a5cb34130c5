import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { ADMIN_EMAIL, type HttpClient } from '@partner-portal/server/test-kit';
import { axeProblems, newPage, whenStill, type PageWatch } from '../support/browser.js';
import {
  invitationLink,
  openContext,
  openDialog,
  screenshot,
  signedIn,
  usePortalAndBrowser,
  userIdOf,
  VIEWPORTS,
} from '../support/portal.js';

/**
 * The organization-management story, in Chromium against the real server, database and SMTP sink: an
 * administrator builds a 3-level tree, invites a user who registers in Dutch and signs in, edits
 * their rights (the editor's locking rules checked in the DOM), searches, revokes and resends,
 * removes the user, deletes an organization; a sub-organization manager sees only their subtree.
 */
const e2e = usePortalAndBrowser();
let admin: BrowserContext;
let adminApi: HttpClient;
let page: Page;
let watch: PageWatch;
let rootName: string;
const ids: Record<string, string> = {};
const INVITEE = 'anna.jansen@dealer-noord.nl';
const INVITEE_PASSWORD = 'Sterk-Wachtw00rd!';

const toast = (text: string | RegExp) => page.locator('.mantine-Notification-root').filter({ hasText: text }).first();
const idFromUrl = () => new URL(page.url()).pathname.split('/').pop()!;

beforeAll(async () => {
  adminApi = await e2e.portal.sessionFor(e2e.portal.adminUserId);
  admin = await signedIn(e2e.browser, e2e.portal, adminApi);
  ({ page, watch } = await newPage(admin));
  page.setDefaultTimeout(10_000);
  const tree = await adminApi.get('/api/organizations/tree');
  rootName = tree.body.label;
});
afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') {
    await screenshot(page, `failure-${ctx.task.name.slice(0, 30).replace(/\W+/g, '-')}`).catch(() => undefined);
    console.log('FAILURE at', page.url(), watch.problems);
  }
});
afterAll(async () => {
  await admin?.close();
});

/** A member made the real way: invited through the API, registered with the invitation's link. */
async function acceptInvitation(organizationId: string, email: string, rights?: object) {
  const before = e2e.portal.smtp.messages.length;
  const invited = await adminApi.post(`/api/organizations/${organizationId}/invitations`, {
    email_address: email,
    language_code: 'en',
    ...(rights ? { rights } : {}),
  });
  expect(invited.status).toBe(201);
  const link = await invitationLink(e2e.portal, email, before);
  const accepted = await e2e.portal.client().put(`/api/invitations/${link.pathname.split('/').pop()}/accept`, {
    invitation_code: link.searchParams.get('code'),
    first_name: 'Mark',
    last_name: 'de Vries',
    language_code: 'en',
    password: INVITEE_PASSWORD,
    password_confirmation: INVITEE_PASSWORD,
    opt_in_for_newsletter: false,
    accept_agreement: true,
  });
  expect(accepted.status).toBe(204);
}

async function createSubOrganization(name: string, apps: string[], allowChildren: boolean, shot?: string) {
  await page.getByRole('button', { name: 'Create sub-organization' }).click();
  const dialog = await openDialog(page, /^Create sub-organization in /);
  const create = dialog.getByRole('button', { name: 'Create', exact: true });
  expect(await create.isDisabled()).toBe(true);
  await dialog.getByLabel('Name').fill('   ');
  expect(await create.isDisabled()).toBe(true);
  await dialog.getByLabel('Name').fill(`  ${name}  `);
  expect(await create.isEnabled()).toBe(true);
  for (const app of apps) await dialog.getByRole('checkbox', { name: app, exact: true }).check();
  if (allowChildren) await dialog.getByRole('checkbox', { name: 'Allow creation of sub-organizations' }).check();
  if (shot) {
    expect(await axeProblems(page)).toEqual([]);
    await screenshot(page, shot);
  }
  await create.click();
  await toast(`Organization ${name} created`).waitFor();
  await page.getByRole('heading', { level: 1, name }).waitFor();
  await dialog.waitFor({ state: 'detached' });
  return idFromUrl();
}

describe('organization management', () => {
  it('shows the root organization with its tree, tables and actions, without axe violations', async () => {
    await page.goto(`/manage-organization/${e2e.portal.rootOrganizationId}`);
    await page.getByRole('heading', { level: 1, name: rootName }).waitFor();
    await page.getByRole('tree', { name: 'Organizations' }).waitFor();
    expect(await page.getByRole('treeitem', { name: rootName }).getAttribute('aria-selected')).toBe('true');
    await page.getByRole('button', { name: 'Invite user' }).waitFor();
    await page.getByRole('button', { name: 'Create sub-organization' }).waitFor();
    // the root (the user's own organization) is neither edited nor deleted here
    expect(await page.getByRole('button', { name: 'Edit organization' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete organization' }).count()).toBe(0);
    await page.getByRole('cell', { name: ADMIN_EMAIL, exact: true }).waitFor();
    await page.getByText('There are no pending invitations').waitFor();
    expect(await axeProblems(page)).toEqual([]);
  });

  it('creates a 3-level tree; new organizations are selected and inserted in name order', async () => {
    ids.noord = await createSubOrganization('Dealer Noord', ['Loyalty & Trade-in', 'Support center', 'Academy'], true, 'modal-create-1280');
    expect(await page.getByRole('treeitem', { name: 'Dealer Noord' }).getAttribute('aria-selected')).toBe('true');
    ids.zwolle = await createSubOrganization('Branch Zwolle', ['Loyalty & Trade-in', 'Support center'], false);
    // third level: the create button follows can_create_sub_organization (not allowed for Zwolle)
    expect(await page.getByRole('button', { name: 'Create sub-organization' }).count()).toBe(0);
    expect(await page.getByRole('treeitem', { name: 'Branch Zwolle' }).getAttribute('aria-level')).toBe('3');

    await page.getByRole('treeitem', { name: rootName }).click();
    await page.getByRole('heading', { level: 1, name: rootName }).waitFor();
    ids.zuid = await createSubOrganization('Dealer Zuid', [], false);
    await page.getByRole('treeitem', { name: rootName }).click();
    await page.getByRole('heading', { level: 1, name: rootName }).waitFor();
    ids.alpha = await createSubOrganization('Alpha Partners', [], false);
    const level2 = await page.locator('[role="treeitem"][aria-level="2"]').allInnerTexts();
    expect(level2.map((s) => s.replace(/\s*\d+$/, '').trim())).toEqual(['Alpha Partners', 'Dealer Noord', 'Dealer Zuid']);
    // a business-rule failure (409) is shown, translated, in the modal's summary
    await page.getByRole('treeitem', { name: rootName }).click();
    await page.getByRole('heading', { level: 1, name: rootName }).waitFor();
    await page.getByRole('button', { name: 'Create sub-organization' }).click();
    const dialog = await openDialog(page, /^Create sub-organization in /);
    await dialog.getByLabel('Name').fill('Dealer Noord');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await dialog.getByRole('alert').getByText('sub-organization path already exists').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    // the server agrees with the tree drawn locally
    const tree = await adminApi.get('/api/organizations/tree');
    expect(tree.body.children.map((c: { label: string }) => c.label)).toEqual(['Alpha Partners', 'Dealer Noord', 'Dealer Zuid']);
    expect(watch.problems).toEqual([]);
  });

  it('filters the tree and selects with the keyboard', async () => {
    await page.getByLabel('Filter organizations').fill('zwol');
    await page.getByRole('treeitem', { name: 'Branch Zwolle' }).waitFor();
    expect(await page.getByRole('treeitem').count()).toBe(3); // root, Dealer Noord, Branch Zwolle
    await page.getByLabel('Filter organizations').fill('');
    const tree = page.getByRole('tree', { name: 'Organizations' });
    await tree.focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowDown'); // Alpha Partners
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Alpha Partners' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/manage-organization/${ids.alpha}`);
  });

  it('edits an organization: warning naming it, Update disabled while the name is empty', async () => {
    await page.goto(`/manage-organization/${ids.zuid}`);
    await page.getByRole('heading', { level: 1, name: 'Dealer Zuid' }).waitFor();
    await page.getByRole('button', { name: 'Edit organization' }).click();
    const dialog = await openDialog(page, 'Edit Dealer Zuid');
    await dialog.getByText('Changing the applications of Dealer Zuid').waitFor();
    await dialog.getByLabel('Name').fill('');
    expect(await dialog.getByRole('button', { name: 'Update' }).isDisabled()).toBe(true);
    await dialog.getByLabel('Name').fill('Dealer Zuid-West');
    await dialog.getByRole('checkbox', { name: 'Academy', exact: true }).check();
    expect(await axeProblems(page)).toEqual([]);
    await screenshot(page, 'modal-edit-1280');
    await dialog.getByRole('button', { name: 'Update' }).click();
    await toast('Organization updated').waitFor();
    await page.getByRole('heading', { level: 1, name: 'Dealer Zuid-West' }).waitFor();
    await page.getByRole('treeitem', { name: 'Dealer Zuid-West' }).waitFor();
    const org = await adminApi.get(`/api/organizations/${ids.zuid}`);
    expect(org.body.apps.map((a: { client_id: string }) => a.client_id)).toEqual(['learnspace']);
  });

  it('invites a user: allowed domains checked, language defaults to the inviter’s', async () => {
    expect(
      (await adminApi.put(`/api/organizations/${ids.zwolle}/allowed-email-domains`, { allowed_email_domains: ['dealer-noord.nl'] })).status,
    ).toBe(204);
    await page.goto(`/manage-organization/${ids.zwolle}`);
    await page.getByRole('heading', { level: 1, name: 'Branch Zwolle' }).waitFor();
    await page.getByRole('button', { name: 'Invite user' }).click();
    const dialog = await openDialog(page, 'Invite user to Branch Zwolle');
    expect(await dialog.getByLabel('Language').inputValue()).toBe('en');
    await dialog.getByRole('textbox', { name: 'E-mail address' }).fill('someone@elsewhere.com');
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await dialog.getByText('not allowed to send invite to email address: @dealer-noord.nl').waitFor();
    await dialog.getByRole('checkbox', { name: 'Set rights now' }).check();
    await dialog.getByRole('group', { name: 'Loyalty & Trade-in' }).waitFor();
    expect(await axeProblems(page)).toEqual([]);
    await screenshot(page, 'modal-invite-1280');
    await dialog.getByRole('checkbox', { name: 'Set rights now' }).uncheck();
    await dialog.getByRole('textbox', { name: 'E-mail address' }).fill(INVITEE);
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await toast('Invitation email has been sent').waitFor();
    await page.getByRole('cell', { name: INVITEE, exact: true }).waitFor();
    await page.getByText('Pending', { exact: true }).waitFor();
    const today = new Date();
    const dd = String(today.getDate()).padStart(2, '0');
    const mm = String(today.getMonth() + 1).padStart(2, '0');
    // one date format per language, from Intl: day/month/year with the whole year in en-GB (apps/web/src/lib/dates.ts)
    const yyyy = String(today.getFullYear());
    expect(await page.getByRole('cell', { name: `${dd}/${mm}/${yyyy}` }).count()).toBeGreaterThan(0);
  });

  it('the invitee registers in Dutch and signs in', async () => {
    const link = await invitationLink(e2e.portal, INVITEE);
    const context = await openContext(e2e.browser, e2e.portal);
    const { page: invitee, watch: inviteeWatch } = await newPage(context);
    await invitee.goto(link.pathname + link.search);
    await invitee.getByRole('heading', { level: 1, name: 'Welcome to the Partner Portal' }).waitFor();
    // the form is there before the invitation is (pre-rendered): its address fills in once it is known
    await expect.poll(() => invitee.getByLabel('E-mail address').inputValue(), { timeout: 30_000 }).toBe(INVITEE);
    // read-only (full-contrast text), not disabled
    expect(await invitee.getByLabel('E-mail address').isEditable()).toBe(false);
    await invitee.getByLabel('Preferred language').selectOption('nl');
    await invitee.getByRole('heading', { level: 1, name: 'Welkom bij het Partner Portal' }).waitFor();
    await invitee.locator('input[name="first_name"]').fill('  Anna ');
    await invitee.locator('input[name="last_name"]').fill('Jansen');
    await invitee.locator('input[name="password"]').fill('kort');
    // the hints show while the field has focus, each rule ticked off as it is met
    await invitee.getByText('minstens 8 tekens').waitFor();
    expect(await invitee.getByText('een kleine letter').isVisible()).toBe(true);
    await invitee.locator('input[name="password"]').fill(INVITEE_PASSWORD);
    await invitee.locator('input[name="password_confirmation"]').fill(INVITEE_PASSWORD);
    await invitee.getByRole('checkbox', { name: 'Houd me op de hoogte met de nieuwsbrief' }).check();
    // the agreement is required
    await invitee.getByRole('button', { name: 'Registreren' }).click();
    await invitee.getByText('Je moet akkoord gaan met de privacyverklaring').waitFor();
    expect(await invitee.getByRole('link', { name: 'privacyverklaring' }).getAttribute('target')).toBe('_blank');
    expect(await axeProblems(invitee)).toEqual([]);
    await screenshot(invitee, 'invitation-form-1280');
    await invitee.locator('input[name="accept_agreement"]').check();
    await invitee.getByRole('button', { name: 'Registreren' }).click();
    await invitee.waitForURL((url) => url.pathname === '/login');

    // sign in through the login page
    await invitee.locator('input[name="email"]').fill(INVITEE);
    await invitee.locator('form button[type="submit"]').click();
    await invitee.locator('input[name="password"]').fill(INVITEE_PASSWORD);
    await invitee.locator('form button[type="submit"]').click();
    await invitee.waitForURL((url) => url.pathname === '/');
    const me = await invitee.evaluate(async () => (await fetch('/api/identity/user-info', { headers: { 'X-CSRF': '1' } })).json());
    expect(me).toMatchObject({ email: INVITEE, firstName: 'Anna', lastName: 'Jansen', languageCode: 'nl' });
    expect(inviteeWatch.problems).toEqual([]);
    await context.close();
  });

  it('edits the user’s rights; the editor’s locking rules hold in the DOM', async () => {
    await page.goto(`/manage-organization/${ids.zwolle}`);
    await page.getByRole('cell', { name: INVITEE, exact: true }).waitFor();
    // the accepted invitation left the pending list
    await page.getByText('There are no pending invitations').waitFor();
    await page.getByRole('button', { name: `Edit rights of ${INVITEE}` }).click();
    const dialog = await openDialog(page, `Edit rights of ${INVITEE}`);
    const loyalty = dialog.getByRole('group', { name: 'Loyalty & Trade-in' });
    await loyalty.waitFor();
    // sections per app: the organization has loyalty and support center, not academy
    expect(await dialog.getByRole('group', { name: 'Academy' }).count()).toBe(0);
    await dialog.getByRole('group', { name: 'Support center' }).waitFor();
    await dialog.getByRole('group', { name: 'Partner Portal' }).waitFor();
    // no provider-only or developer boxes outside the provider's organization
    expect(await loyalty.getByRole('checkbox', { name: 'Developer options' }).count()).toBe(0);
    expect(await loyalty.getByRole('checkbox', { name: 'Sales and credit note numbers' }).count()).toBe(0);

    const access = loyalty.getByRole('checkbox', { name: 'Access', exact: true });
    const requests = loyalty.getByRole('checkbox', { name: 'Manage requests' });
    const full = loyalty.getByRole('checkbox', { name: 'Full permission', exact: true });
    expect(await access.isChecked()).toBe(false);
    await requests.check();
    expect(await access.isChecked()).toBe(true);
    expect(await access.isDisabled()).toBe(true);
    await requests.uncheck();
    expect(await access.isDisabled()).toBe(false);
    expect(await access.isChecked()).toBe(true);
    await access.uncheck();
    // per-app full permission sets access and the sub-rights
    await full.check();
    expect(await access.isChecked()).toBe(true);
    expect(await requests.isChecked()).toBe(true);
    await full.uncheck();
    await requests.uncheck();
    // global full permission checks and disables every app box
    const global = dialog.getByRole('checkbox', { name: 'Full permission for all applications' });
    await global.check();
    const boxes = dialog.locator('fieldset input[type="checkbox"]');
    const n = await boxes.count();
    expect(n).toBeGreaterThan(5);
    for (let i = 0; i < n; i++) {
      expect(await boxes.nth(i).isChecked()).toBe(true);
      expect(await boxes.nth(i).isDisabled()).toBe(true);
    }
    expect(await axeProblems(page)).toEqual([]);
    await screenshot(page, 'modal-rights-1280');
    // unticking gives back every box as it was before the tick: nothing
    await global.uncheck();
    for (let i = 0; i < n; i++) expect(await boxes.nth(i).isChecked()).toBe(false);
    await requests.check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toast('Updated user rights').waitFor();
    const memberId = (await adminApi.get(`/api/organizations/${ids.zwolle}`)).body.members.find(
      (m: { email_address: string }) => m.email_address === INVITEE,
    ).id;
    const saved = await adminApi.get(`/api/members/rights/${memberId}`);
    expect(saved.body.rights.global_full_permission).toBe(false);
    expect(saved.body.rights.loyalty).toMatchObject({ user_access: true, user_request_manager: true, user_full_permission: false });
  });

  it('shows 4 rows unless view all; searches; revokes and resends', async () => {
    await page.goto(`/manage-organization/${ids.noord}`);
    await page.getByRole('heading', { level: 1, name: 'Dealer Noord' }).waitFor();
    for (const n of [1, 2, 3, 4, 5]) {
      const res = await adminApi.post(`/api/organizations/${ids.noord}/invitations`, {
        email_address: `partner${n}@dealer-noord.nl`,
        language_code: 'en',
      });
      expect(res.status).toBe(201);
    }
    await page.reload();
    const invitations = page.locator('#org-invitations-table tbody tr');
    await invitations.first().waitFor();
    expect(await invitations.count()).toBe(4);
    await page.getByRole('button', { name: 'View all' }).click();
    expect(await invitations.count()).toBe(5);
    await screenshot(page, 'manage-1280');
    await page.getByRole('button', { name: 'View less' }).click();
    expect(await invitations.count()).toBe(4);

    // search: a case-insensitive e-mail substring over the subtree, no view-all toggle
    await page.getByLabel('Search users and invitations by e-mail address').fill('DEALER-NOORD');
    await page.getByRole('heading', { name: 'Search results' }).waitFor();
    await page.getByRole('cell', { name: INVITEE, exact: true }).waitFor(); // a member of Branch Zwolle, below Dealer Noord
    await page.waitForFunction(() => document.querySelectorAll('#org-invitations-table tbody tr').length >= 5);
    expect(await page.getByRole('button', { name: 'View all' }).count()).toBe(0);
    await page.getByLabel('Search users and invitations by e-mail address').fill('nobody-here');
    await page.getByText('No users match your search').waitFor();
    await page.getByText('No invitations match your search').waitFor();
    expect(await axeProblems(page)).toEqual([]);
    await page.getByLabel('Search users and invitations by e-mail address').fill('');

    await page.getByRole('button', { name: 'Revoke invitation of partner1@dealer-noord.nl' }).click();
    const dialog = await openDialog(page, 'Revoke invitation');
    expect(await axeProblems(page)).toEqual([]);
    await screenshot(page, 'modal-revoke-1280');
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await toast('Invitation revoked').waitFor();
    await page.waitForFunction(() => !document.body.innerText.includes('partner1@dealer-noord.nl'));

    const before = e2e.portal.smtp.messages.length;
    await page.getByRole('button', { name: 'Resend invitation to partner2@dealer-noord.nl' }).click();
    await toast('Invitation has been resent').waitFor();
    await invitationLink(e2e.portal, 'partner2@dealer-noord.nl', before);
  });

  it('removes the user and deletes an empty organization, selecting its parent', async () => {
    await page.goto(`/manage-organization/${ids.zwolle}`);
    await page.getByRole('button', { name: `Remove ${INVITEE}` }).click();
    const dialog = await openDialog(page, 'Remove user');
    expect(await axeProblems(page)).toEqual([]);
    await screenshot(page, 'modal-remove-1280');
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await toast(`User ${INVITEE} has been removed`).waitFor();
    await page.getByText('This organization has no users yet').waitFor();

    // Branch Zwolle is now empty: it can be deleted
    await page.getByRole('button', { name: 'Delete organization' }).click();
    const confirm = await openDialog(page, 'Delete organization');
    await confirm.getByText('Are you sure you want to delete Branch Zwolle?').waitFor();
    expect(await axeProblems(page)).toEqual([]);
    await screenshot(page, 'modal-delete-1280');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await toast('Organization deleted').waitFor();
    await page.getByRole('heading', { level: 1, name: 'Dealer Noord' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/manage-organization/${ids.noord}`);
    expect(await page.getByRole('treeitem', { name: 'Branch Zwolle' }).count()).toBe(0);
    expect(await page.getByRole('treeitem', { name: 'Dealer Noord' }).getAttribute('aria-selected')).toBe('true');
    // Dealer Noord still has invitations... but no members and no sub-organizations: deletable
    expect(watch.problems).toEqual([]);
  });

  it('works at 768 px: the tree folds behind a toggle button; modals fit', async () => {
    const narrow = await admin.newPage();
    await narrow.setViewportSize(VIEWPORTS.narrow);
    await narrow.goto(`/manage-organization/${ids.noord}`);
    await narrow.getByRole('heading', { level: 1, name: 'Dealer Noord' }).waitFor();
    const toggle = narrow.getByRole('button', { name: 'Show organizations' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await axeProblems(narrow)).toEqual([]);
    await screenshot(narrow, 'manage-768');
    await toggle.click();
    // the tree opens with an animation: choose once it stands still
    await narrow.getByRole('button', { name: 'Hide organizations' }).waitFor();
    await whenStill(narrow);
    await narrow.getByRole('treeitem', { name: 'Dealer Zuid-West' }).click();
    await narrow.getByRole('heading', { level: 1, name: 'Dealer Zuid-West' }).waitFor();
    await narrow.getByRole('button', { name: 'Show organizations' }).click();
    await narrow.getByRole('button', { name: 'Hide organizations' }).waitFor();
    await whenStill(narrow);
    expect(await axeProblems(narrow)).toEqual([]);
    await screenshot(narrow, 'manage-tree-768');
    await narrow.getByRole('button', { name: 'Hide organizations' }).click();
    for (const [button, title, name] of [
      ['Create sub-organization', /^Create sub-organization in /, 'modal-create-768'],
      ['Edit organization', /^Edit /, 'modal-edit-768'],
      ['Invite user', /^Invite user to /, 'modal-invite-768'],
      ['Delete organization', 'Delete organization', 'modal-delete-768'],
    ] as const) {
      const count = await narrow.getByRole('button', { name: button }).count();
      if (count === 0) continue;
      await narrow.getByRole('button', { name: button }).click();
      const dialog = await openDialog(narrow, title);
      if (button === 'Invite user') await dialog.getByRole('checkbox', { name: 'Set rights now' }).check();
      expect(await axeProblems(narrow)).toEqual([]);
      await screenshot(narrow, name);
      await narrow.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
    }
    // the rights editor and the remove confirmation, on the root (provider) organization, for a
    // colleague of the administrator (one's own row offers neither)
    const staff = 'staff@nedap.example';
    await acceptInvitation(e2e.portal.rootOrganizationId, staff);
    await narrow.goto(`/manage-organization/${e2e.portal.rootOrganizationId}`);
    expect(await narrow.getByRole('button', { name: `Edit rights of ${ADMIN_EMAIL}` }).getAttribute('aria-disabled')).toBe('true');
    await narrow.getByRole('button', { name: `Edit rights of ${staff}` }).click();
    const rights = await openDialog(narrow, `Edit rights of ${staff}`);
    // provider staff: no global full permission, the provider variants, developer options for a developer
    expect(await rights.getByRole('checkbox', { name: 'Full permission for all applications' }).count()).toBe(0);
    await rights.getByRole('group', { name: 'Loyalty & Trade-in' }).getByRole('checkbox', { name: 'Developer options' }).waitFor();
    await rights
      .getByRole('group', { name: 'Loyalty & Trade-in' })
      .getByRole('checkbox', { name: 'Sales and credit note numbers' })
      .waitFor();
    expect(await axeProblems(narrow)).toEqual([]);
    await screenshot(narrow, 'modal-rights-768');
    await narrow.keyboard.press('Escape');
    await rights.waitFor({ state: 'detached' });
    await narrow.getByRole('button', { name: `Remove ${staff}` }).click();
    await openDialog(narrow, 'Remove user');
    await screenshot(narrow, 'modal-remove-768');
    await narrow.keyboard.press('Escape');

    await narrow.goto(`/manage-organization/${ids.noord}`);
    await narrow.getByRole('button', { name: 'Revoke invitation of partner2@dealer-noord.nl' }).click();
    await openDialog(narrow, 'Revoke invitation');
    await screenshot(narrow, 'modal-revoke-768');
    await narrow.keyboard.press('Escape');
    await narrow.close();
  });

  it('a sub-organization manager sees only their own subtree', async () => {
    const email = 'manager@dealer-noord.nl';
    await acceptInvitation(ids.noord!, email, {
      partner_portal: { user_user_manager: true, user_sub_organization_manager: true },
      loyalty: { user_access: true },
    });
    const colleague = 'colleague@dealer-noord.nl';
    await acceptInvitation(ids.noord!, colleague);
    const context = await signedIn(e2e.browser, e2e.portal, await userIdOf(e2e.portal, email));
    const { page: manager, watch: managerWatch } = await newPage(context);
    await manager.goto(`/manage-organization/${ids.noord}`);
    await manager.getByRole('heading', { level: 1, name: 'Dealer Noord' }).waitFor();
    await manager.getByRole('treeitem', { name: 'Dealer Noord' }).waitFor();
    expect(await manager.getByRole('treeitem', { name: rootName }).count()).toBe(0);
    expect(await manager.getByRole('treeitem', { name: 'Dealer Zuid-West' }).count()).toBe(0);
    expect(await manager.locator('[role="treeitem"][aria-level="1"]').count()).toBe(1);
    // their own organization: no edit or delete
    expect(await manager.getByRole('button', { name: 'Edit organization' }).count()).toBe(0);
    await manager.getByRole('button', { name: 'Invite user' }).waitFor();
    // the manager's rights editor offers no provider-only or developer boxes (their own row offers none)
    expect(await manager.getByRole('button', { name: `Edit rights of ${email}` }).getAttribute('aria-disabled')).toBe('true');
    await manager.getByRole('button', { name: `Edit rights of ${colleague}` }).click();
    const dialog = await openDialog(manager, `Edit rights of ${colleague}`);
    expect(await dialog.getByRole('checkbox', { name: 'Developer options' }).count()).toBe(0);
    await dialog.getByRole('checkbox', { name: 'Full permission for all applications' }).waitFor();
    await manager.keyboard.press('Escape');
    // another branch of the tree is forbidden
    const other = await manager.evaluate(
      async (id) => (await fetch(`/api/organizations/${id}`, { headers: { 'X-CSRF': '1' } })).status,
      ids.zuid,
    );
    expect([403, 404]).toContain(other);
    expect(managerWatch.problems).toEqual([]);
    await context.close();
  });
});
