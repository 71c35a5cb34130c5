import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createMember, createOrg, type Org, rights } from '@partner-portal/server/test-kit';
import { axeProblems, newPage } from '../support/browser.js';
import { openDialog, signedIn, usePortalAndBrowser } from '../support/portal.js';

/**
 * The rights editor in Chromium: unticking a full permission gives back every box as it was before
 * the tick (a slip must not grant everything), and the boxes an actor may not change (delegation,
 * docs/security.md) are disabled with the reason, the same rule the server enforces.
 */
const e2e = usePortalAndBrowser();
let partner: Org;

beforeAll(async () => {
  const { rows } = await e2e.portal.services.db.query<{ id: string; path: string; name: string }>(
    'SELECT id, path, name FROM organizations WHERE id = $1',
    [e2e.portal.rootOrganizationId],
  );
  partner = await createOrg(e2e.portal, rows[0]!, 'Dealer Rechten', { canCreate: true });
});

async function openRights(page: Page, email: string) {
  await page.goto(`/manage-organization/${partner.id}`);
  await page.getByRole('button', { name: `Edit rights of ${email}` }).click();
  const dialog = await openDialog(page, `Edit rights of ${email}`);
  await dialog.getByRole('group', { name: 'Partner Portal' }).waitFor();
  return dialog;
}

const checkedNames = (page: Page) =>
  page
    .getByRole('dialog')
    .locator('input[type="checkbox"]:checked')
    .evaluateAll((boxes) => boxes.map((b) => (b as HTMLInputElement).name || 'global'));

describe('the rights editor', () => {
  it('unticking full permission for all applications gives back every box as it was before the tick', async () => {
    const member = await createMember(
      e2e.portal,
      partner,
      'nothing',
      rights((r) => (r.loyalty.user_request_manager = r.loyalty.user_access = true)),
    );
    const context = await signedIn(e2e.browser, e2e.portal, e2e.portal.adminUserId);
    const { page, watch } = await newPage(context);
    page.setDefaultTimeout(10_000);
    const dialog = await openRights(page, member.email);
    const before = await checkedNames(page);
    expect(before.sort()).toEqual(['loyalty.user_access', 'loyalty.user_request_manager']);

    const global = dialog.getByRole('checkbox', { name: 'Full permission for all applications' });
    await global.check();
    expect((await checkedNames(page)).length).toBeGreaterThan(10);
    await global.uncheck();
    expect((await checkedNames(page)).sort()).toEqual(before.sort());

    // the same for one application's full permission
    const loyalty = dialog.getByRole('group', { name: 'Loyalty & Trade-in' });
    await loyalty.getByRole('checkbox', { name: 'Full permission', exact: true }).check();
    expect(await loyalty.locator('input:checked').count()).toBeGreaterThan(2);
    await loyalty.getByRole('checkbox', { name: 'Full permission', exact: true }).uncheck();
    expect((await checkedNames(page)).sort()).toEqual(before.sort());

    // and what is saved is what was there
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    const saved = await (await e2e.portal.sessionFor(e2e.portal.adminUserId)).get(`/api/members/rights/${member.memberId}`);
    expect(saved.body.rights.global_full_permission).toBe(false);
    expect(saved.body.rights.partner_portal.user_full_permission).toBe(false);
    expect(saved.body.rights.loyalty).toMatchObject({ user_access: true, user_request_manager: true, user_full_permission: false });
    expect(watch.problems).toEqual([]);
    await context.close();
  });

  it('disables, with the reason, the boxes a userManager does not hold, and every box of a member with more rights', async () => {
    const manager = await createMember(
      e2e.portal,
      partner,
      'manager',
      rights((r) => (r.partner_portal.user_user_manager = true)),
    );
    const plain = await createMember(e2e.portal, partner, 'plain', rights());
    const above = await createMember(
      e2e.portal,
      partner,
      'above',
      rights((r) => (r.partner_portal.user_full_permission = true)),
    );
    const context = await signedIn(e2e.browser, e2e.portal, manager.userId);
    const { page, watch } = await newPage(context);
    page.setDefaultTimeout(10_000);

    const dialog = await openRights(page, plain.email);
    const portalSection = dialog.getByRole('group', { name: 'Partner Portal' });
    expect(await dialog.getByRole('checkbox', { name: 'Full permission for all applications' }).isDisabled()).toBe(true);
    expect(await portalSection.getByRole('checkbox', { name: 'Manage users' }).isDisabled()).toBe(false);
    expect(await portalSection.getByRole('checkbox', { name: 'Manage sub-organizations' }).isDisabled()).toBe(true);
    expect(
      await dialog.getByRole('group', { name: 'Loyalty & Trade-in' }).getByRole('checkbox', { name: 'Access', exact: true }).isDisabled(),
    ).toBe(true);
    expect(await dialog.getByText('You do not hold this right').count()).toBeGreaterThan(3);
    expect(await axeProblems(page)).toEqual([]);
    // what it holds, it hands on
    await portalSection.getByRole('checkbox', { name: 'Manage users' }).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });

    const locked = await openRights(page, above.email);
    await locked.getByText('This member holds rights that you do not hold, so you cannot change their rights.').waitFor();
    const boxes = locked.locator('input[type="checkbox"]');
    for (let i = 0; i < (await boxes.count()); i++) expect(await boxes.nth(i).isDisabled()).toBe(true);
    expect(await locked.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    expect(watch.problems).toEqual([]);
    await context.close();
  });
});
