import { mkdirSync, readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createMember, createOrg, setPassword, type HttpClient, type Org } from '@partner-portal/server/test-kit';
import { axeProblems, newPage, whenStill } from '../support/browser.js';
import { rootOrganization } from '../support/organizations.js';
import { invitationLink, openContext, openDialog, signedIn, usePortalAndBrowser, type Viewport } from '../support/portal.js';
import { webText } from '../support/texts.js';

/**
 * Small flows of the web app, each in Portuguese (Brazil) on a phone and German on a wide screen:
 * the bulk invitation file (the refused language named, a template to start from, the report in
 * the interface language), the registration's password hints from the start and the login's
 * address filled in after it, the second-factor screens without the password and account links,
 * and the bootstrap administrator's profile saved as it is.
 */
const e2e = usePortalAndBrowser();
const PASSWORD = 'Sterk-Wachtw00rd!';
const SHOTS = '/tmp/shots-low-c/';
mkdirSync(SHOTS, { recursive: true });

const CASES: { language: string; code: string; viewport: Viewport; width: number }[] = [
  { language: 'pt-BR', code: 'pt-BR', viewport: { width: 390, height: 844 }, width: 390 },
  { language: 'de', code: 'de', viewport: { width: 1280, height: 900 }, width: 1280 },
];

/**
 * A text of the administration locales, nested keys ("bulkFile.template") included, or of the
 * feature's own locales (the texts the page shows before the administrator's tools load).
 */
function adminText(language: string, key: string): string {
  for (const folder of ['administration/', '']) {
    const url = new URL(`../../apps/web/src/features/organizations/locales/${folder}${language}.json`, import.meta.url);
    let value: unknown = JSON.parse(readFileSync(url, 'utf8'));
    for (const part of key.split('.')) value = (value as Record<string, unknown> | undefined)?.[part];
    if (typeof value === 'string') return value;
  }
  throw new Error(`no text ${key} in ${language}`);
}
const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name]));

async function shot(page: Page, name: string) {
  await whenStill(page);
  await page.screenshot({ path: `${SHOTS}${name}.png` });
}

let admin: HttpClient;
let dealer: Org;

beforeAll(async () => {
  admin = await e2e.portal.sessionFor(e2e.portal.adminUserId);
  dealer = await createOrg(e2e.portal, await rootOrganization(e2e.portal), 'Dealer Klein');
});
// a context in another language makes it the administrator's saved language: start each test from English
beforeEach(async () => {
  await e2e.portal.services.db.query("UPDATE users SET language_code = 'en' WHERE id = $1", [e2e.portal.adminUserId]);
});

describe.each(CASES)('small flows in $language at $width px', ({ language, code, viewport, width }) => {
  it('bulk file: a template to start from, the refused language named, the report in the interface language', async () => {
    const context = await signedIn(e2e.browser, e2e.portal, e2e.portal.adminUserId, { viewport, language });
    context.setDefaultTimeout(15_000);
    const { page, watch } = await newPage(context);
    await page.goto(`/manage-organization/${dealer.id}`);
    await page.getByRole('button', { name: adminText(language, 'adm_bulk_open') }).click();
    const dialog = await openDialog(page, fill(adminText(language, 'adm_bulk_title'), { name: dealer.name }));

    // the template: the header the server reads and one example row in the interface language
    const [templateDownload] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: adminText(language, 'bulkFile.template') }).click(),
    ]);
    const templateText = readFileSync(await templateDownload.path(), 'utf8');
    const template = parse<Record<string, string>>(templateText, { columns: true, bom: true });
    expect(Object.keys(template[0]!)).toEqual(['email', 'first_name', 'last_name', 'language']);
    expect(template).toHaveLength(1);
    expect(template[0]!.language).toBe(code);
    expect(template[0]!.first_name).toBe(adminText(language, 'bulkFile.exampleFirstName'));
    await shot(page, `bulk-template-${language}-${width}`);
    expect(await axeProblems(page)).toEqual([]);

    // the template filled in, plus a row with a language the portal does not speak
    const refusedEmail = `refused.${code.toLowerCase()}@example.com`;
    const csv = `${templateText.replace(/\r\n$/, '')}\r\n${refusedEmail},Rui,Lopes,xx\r\n`;
    await dialog.locator('input[type=file]').setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await dialog.getByRole('button', { name: adminText(language, 'adm_bulk_check') }).click();
    const refused = dialog.locator('[data-testid=bulk-row][data-line="3"]');
    await refused.waitFor();
    expect(await refused.textContent()).toContain(fill(adminText(language, 'bulkFile.invalidLanguage'), { value: 'xx' }));
    await shot(page, `bulk-refused-language-${language}-${width}`);
    expect(await axeProblems(page)).toEqual([]);

    await dialog.getByRole('button', { name: fill(adminText(language, 'adm_bulk_send_one'), { count: 1 }) }).click();
    await dialog.getByText(fill(adminText(language, 'adm_bulk_done'), { sent: 1, total: 2 })).waitFor({ timeout: 30_000 });
    const [reportDownload] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: adminText(language, 'adm_bulk_download_report') }).click(),
    ]);
    const report = parse<Record<string, string>>(readFileSync(await reportDownload.path(), 'utf8'), { columns: true, bom: true });
    const [line, email, result] = [
      adminText(language, 'adm_bulk_line'),
      adminText(language, 'adm_bulk_email'),
      adminText(language, 'adm_bulk_outcome'),
    ];
    expect(Object.keys(report[0]!)).toEqual([
      line,
      email,
      adminText(language, 'bulkFile.firstName'),
      adminText(language, 'bulkFile.lastName'),
      adminText(language, 'adm_bulk_language'),
      result,
      'outcome',
      'invitation_id',
    ]);
    expect(report.map((r) => [r[line], r[email], r[result], r.outcome])).toEqual([
      ['2', template[0]!.email, adminText(language, 'adm_bulk_outcome_sent'), 'sent'],
      ['3', refusedEmail, fill(adminText(language, 'bulkFile.invalidLanguage'), { value: 'xx' }), 'invalid_language'],
    ]);
    await shot(page, `bulk-sent-${language}-${width}`);
    expect(await axeProblems(page)).toEqual([]);
    expect(watch.problems).toEqual([]);
    await context.close();
  });

  it('registration: the password rules show before anything is typed; the login page then has the address filled in', async () => {
    const email = `registered.${code.toLowerCase()}@example.com`;
    const res = await admin.post(`/api/organizations/${dealer.id}/invitations`, { email_address: email, language_code: code });
    expect(res.status).toBe(201);
    const link = await invitationLink(e2e.portal, email);
    const context = await openContext(e2e.browser, e2e.portal, { viewport });
    context.setDefaultTimeout(15_000);
    const { page, watch } = await newPage(context);
    await page.goto(link.pathname + link.search);
    const password = page.locator('input[name="password"]');
    await password.waitFor();
    // nothing typed, the field not focused: the rules are there
    expect(await page.getByText(webText(language, 'hint_password_too_short')).isVisible()).toBe(true);
    expect(await page.getByText(webText(language, 'hint_password_requires_upper')).isVisible()).toBe(true);
    await shot(page, `registration-hints-${language}-${width}`);
    expect(await axeProblems(page)).toEqual([]);

    await page.locator('input[name="first_name"]').fill('Maria');
    await page.locator('input[name="last_name"]').fill('Klein');
    await password.fill(PASSWORD);
    await page.locator('input[name="password_confirmation"]').fill(PASSWORD);
    await page.locator('input[name="accept_agreement"]').check();
    await page.getByRole('button', { name: webText(language, 'inv_register'), exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByText(webText(language, 'account_ready_title')).waitFor();
    expect(await page.getByLabel(webText(language, 'email_address')).inputValue()).toBe(email);
    await shot(page, `login-after-registering-${language}-${width}`);
    expect(await axeProblems(page)).toEqual([]);
    expect(watch.problems.filter((p) => !/status of 401/.test(p))).toEqual([]);
    await context.close();
  });

  it('second-factor screens: no "forgot your password" or "no account yet" there', async () => {
    const strict = await createOrg(e2e.portal, await rootOrganization(e2e.portal), `Strict ${code}`);
    expect((await admin.put(`/api/organizations/${strict.id}/second-factor-policy`, { required: true })).status).toBe(200);
    const member = await createMember(e2e.portal, strict, 'Joana', () => undefined, { language: code });
    await setPassword(e2e.portal, member.userId, PASSWORD);
    const context = await openContext(e2e.browser, e2e.portal, { viewport, language });
    context.setDefaultTimeout(15_000);
    const { page, watch } = await newPage(context);
    await page.goto('/login');
    const forgot = page.getByRole('link', { name: webText(language, 'forgot_your_password') });
    const noAccount = page.getByText(webText(language, 'no_account_title'));
    // the e-mail and password steps offer both
    await forgot.waitFor();
    expect(await noAccount.isVisible()).toBe(true);
    await page.getByLabel(webText(language, 'email_address')).fill(member.email);
    await page.keyboard.press('Enter');
    await page.locator('input[name="password"]').fill(PASSWORD);
    expect(await forgot.isVisible()).toBe(true);
    await page.keyboard.press('Enter');
    // the second factor's screen does not
    await page.getByText(webText(language, 'enrol_title')).first().waitFor();
    expect(await forgot.count()).toBe(0);
    expect(await noAccount.count()).toBe(0);
    await shot(page, `login-enrol-${language}-${width}`);
    expect(await axeProblems(page)).toEqual([]);
    expect(watch.problems.filter((p) => !/status of 401/.test(p))).toEqual([]);
    await context.close();
  });

  it('the bootstrap administrator saves the profile as it is: a last name is there', async () => {
    const context = await signedIn(e2e.browser, e2e.portal, e2e.portal.adminUserId, { viewport, language });
    context.setDefaultTimeout(15_000);
    const { page, watch } = await newPage(context);
    await page.goto('/profile');
    const lastName = page.locator('input[name="last_name"]');
    await lastName.waitFor();
    expect(await lastName.inputValue()).toBe('Administrator');
    await page.getByRole('button', { name: webText(language, 'save'), exact: true }).click();
    await page.getByText(webText(language, 'profile_updated')).waitFor();
    await shot(page, `profile-saved-${language}-${width}`);
    expect(watch.problems).toEqual([]);
    await context.close();
  });
});
