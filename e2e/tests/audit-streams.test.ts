import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import {
  createMember,
  createOrg,
  startReceiver,
  startStreamWorker,
  type ActorRef,
  type Org,
  type Receiver,
} from '@partner-portal/server/test-kit';
import { axeProblems, newPage, whenStill, type PageWatch } from '../support/browser.js';
import { rootOrganization } from '../support/organizations.js';
import { openDialog, screenshot, signedIn, usePortalAndBrowser } from '../support/portal.js';
import { webText } from '../support/texts.js';

/**
 * The "Audit streams" panel of the manage page's "Integrations" section (docs/integrations.md,
 * "Audit streams"), in Chromium against the real server, database and a receiver on 127.0.0.1
 * verifying every Standard Webhooks signature: a manager adds an https stream, its secret shown
 * once, and its entries arrive; a stream is paused and resumed, replayed from a date and time, and
 * deleted. A Splunk stream without a token is refused at its field. The panel is axe clean.
 */
const e2e = usePortalAndBrowser();
let receiver: Receiver;
let worker: { stop: () => Promise<void> } | undefined;
let dealer: Org;
let manager: ActorRef;
const PATH = '/audit/siem';

let context: BrowserContext | undefined;
let page: Page | undefined;
let watch: PageWatch | undefined;

beforeAll(async () => {
  receiver = await startReceiver();
  // the portal of the test kit starts no background jobs: the audit streams' lane, as jobs.ts starts it
  worker = await startStreamWorker(e2e.portal);
  dealer = await createOrg(e2e.portal, await rootOrganization(e2e.portal), 'Akkerbouw Audit', { canCreate: true });
  manager = await createMember(e2e.portal, dealer, 'Mgr', (r) => {
    r.partner_portal.user_sub_organization_manager = true;
  });
});

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail' && page) {
    await screenshot(page, `failure-audit-streams-${ctx.task.name.slice(0, 30).replace(/\W+/g, '-')}`).catch(() => undefined);
    console.log('FAILURE at', page.url(), watch?.problems);
  }
  await context?.close();
  context = undefined;
  page = undefined;
});

afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
});

const toast = (p: Page, text: string | RegExp) => p.locator('.mantine-Notification-root').filter({ hasText: text }).first();

/** The manager's manage page, on the "Audit streams" tab. */
async function streamsTab() {
  context = await signedIn(e2e.browser, e2e.portal, manager.userId);
  context.setDefaultTimeout(15_000);
  ({ page, watch } = await newPage(context));
  await page.goto(`/manage-organization/${dealer.id}#integrations`);
  const section = page.getByTestId('integrations');
  await section.getByRole('tab', { name: 'Audit streams' }).click();
  return { p: page, section };
}

const actionsAt = (path: string) => receiver.verified(path).map((r) => (r.payload as unknown as { data: { action: string } }).data.action);

describe('audit streams', () => {
  it('a manager adds an https stream, its secret shown once; its entries arrive; a Splunk stream needs its token', async () => {
    const { p, section } = await streamsTab();
    await p.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await section.getByText('No audit streams yet.').waitFor();

    // Splunk without a token: refused at its field, in words
    await section.getByRole('button', { name: 'Add audit stream' }).click();
    const form = await openDialog(p, 'Add an audit stream');
    await form.getByRole('radio', { name: 'Splunk HTTP Event Collector' }).check();
    await form.getByLabel('URL').fill('https://splunk.example:8088/services/collector/event');
    await form.getByRole('button', { name: 'Create' }).click();
    await form.getByText(webText('en-GB', 'required_field')).waitFor();
    await whenStill(p);
    expect(await axeProblems(p), 'axe on the form').toEqual([]);

    // https: the secret shown once
    await form.getByRole('radio', { name: 'HTTPS (signed as Standard Webhooks)' }).check();
    await form.getByLabel('URL').fill(`${receiver.url}${PATH}`);
    await form.getByRole('button', { name: 'Create' }).click();
    const created = await openDialog(p, 'Audit stream added');
    const secret = (await created.getByTestId('signing-secret').textContent())!;
    expect(secret).toMatch(/^whsec_/);
    receiver.hook(PATH, secret);
    await created.getByRole('button', { name: 'Done' }).click();
    await created.waitFor({ state: 'detached' });

    // its own creation is the first entry of the trail it sends (it may come before the test knows the secret to verify it)
    await expect.poll(() => receiver.received.filter((r) => r.path === PATH).length).toBeGreaterThanOrEqual(1);
    const first = receiver.received.find((r) => r.path === PATH)!;
    expect((JSON.parse(first.body) as { type: string; data: { action: string } }).data.action).toBe('audit_stream.create');
    const card = section.locator(`[data-testid=audit-stream][data-url="${receiver.url}${PATH}"]`);
    await card.getByText('Active').waitFor();
    await whenStill(p);
    expect(await axeProblems(p), 'axe on the list').toEqual([]);
    expect(watch!.problems).toEqual([]);
  });

  it('pause and resume, send again from a time, delete', async () => {
    const PATH2 = '/audit/second';
    const api = await e2e.portal.sessionFor(manager.userId);
    const made = await api.post(`/api/organizations/${dealer.id}/audit-streams`, { kind: 'https', url: `${receiver.url}${PATH2}` });
    expect(made.status, made.text).toBe(201);
    receiver.hook(PATH2, (made.body as { secret: string }).secret);
    await expect.poll(() => receiver.received.filter((r) => r.path === PATH2).length).toBeGreaterThanOrEqual(1);
    const { p, section } = await streamsTab();
    const card = section.locator(`[data-testid=audit-stream][data-url="${receiver.url}${PATH2}"]`);
    await card.getByText('Active').waitFor();
    expect(await card.textContent()).not.toContain('None yet');

    await card.getByRole('button', { name: `Pause the audit stream ${receiver.url}${PATH2}` }).click();
    await toast(p, 'paused').waitFor();
    await card.getByText('Paused').waitFor();
    await card.getByRole('button', { name: `Resume the audit stream ${receiver.url}${PATH2}` }).click();
    await card.getByText('Active').waitFor();
    // the pause and the resume, audited, are sent after it, signed
    const actions = () => actionsAt(PATH2);
    await expect.poll(() => actions().filter((a) => a === 'audit_stream.update').length).toBe(2);

    // send again from a minute ago: the three entries come again
    await card.getByRole('button', { name: `Send again: the entries of the audit stream ${receiver.url}${PATH2} from a time` }).click();
    const replay = await openDialog(p, 'Send entries again');
    const local = new Date(Date.now() - 60_000 - new Date().getTimezoneOffset() * 60_000).toISOString().slice(0, 19);
    await replay.getByLabel('From (your local time)').fill(local);
    await replay.getByRole('button', { name: 'Send again' }).click();
    await replay.waitFor({ state: 'detached' });
    // the creation and both changes again (the replay's own entry after them)
    await expect.poll(() => actions().filter((a) => a === 'audit_stream.update').length).toBe(4);
    expect(actions()).toContain('audit_stream.create');

    await card.getByRole('button', { name: `Delete the audit stream ${receiver.url}${PATH2}` }).click();
    const confirm = await openDialog(p, 'Delete audit stream');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await card.waitFor({ state: 'detached' });
    expect(watch!.problems).toEqual([]);
  });
});
