import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import {
  createMember,
  createOrg,
  createUser,
  startDnsServer,
  startReceiver,
  startWorker,
  type ActorRef,
  type DnsServer,
  type Org,
  type Receiver,
} from '@partner-portal/server/test-kit';
import { AUDIT_ACTIONS } from '@partner-portal/contracts';
import { axeProblems, newPage, whenStill, type PageWatch } from '../support/browser.js';
import { rootOrganization } from '../support/organizations.js';
import { open, openDialog, screenshot, signedIn, usePortalAndBrowser, type Viewport } from '../support/portal.js';
import { webText } from '../support/texts.js';

/**
 * What a dealer's managers meet on the manage page, in Chromium against the real server, database,
 * a DNS server and a webhook receiver of the test kit: a secret shown once is not lost to a stray
 * Escape, × or click outside; the focus stays on "Verify now" and "Send again" once they are done;
 * the audit trail reads every action the server writes (a directory's provisioning naming the
 * person); the webhook deliveries name what they are about and read as failing while retried; on a
 * phone in Dutch the header's language, the requests' count and long addresses fit; the
 * authenticator's key has a Copy button.
 */
const env: Record<string, string> = {};
let dns: DnsServer;
// before the portal starts (usePortalAndBrowser reads the environment in its own beforeAll, after this one)
beforeAll(async () => {
  dns = await startDnsServer();
  env.DNS_SERVERS = dns.address;
});
const e2e = usePortalAndBrowser(env);
let receiver: Receiver;
let worker: { stop: () => Promise<void> } | undefined;

/** A dealer whose manager holds both manager rights. */
let dealer: Org;
let manager: ActorRef;
/** A domain the dealer verified (in SQL): visitors of it ask the dealer's userManagers for access. */
const REQUEST_DOMAIN = 'usability-e2e.example';
const FAILING_PATH = '/hooks/failing';

let context: BrowserContext | undefined;
let page: Page | undefined;
let watch: PageWatch | undefined;

beforeAll(async () => {
  receiver = await startReceiver();
  // the portal of the test kit starts no background jobs: the webhooks' sender, as jobs.ts starts it
  worker = await startWorker(e2e.portal);
  dealer = await createOrg(e2e.portal, await rootOrganization(e2e.portal), 'Farmtech B.V.', { canCreate: true });
  manager = await createMember(e2e.portal, dealer, 'Mgr', (r) => {
    r.partner_portal.user_user_manager = true;
    r.partner_portal.user_sub_organization_manager = true;
  });
  await e2e.portal.services.db.query(
    `INSERT INTO organization_domains (organization_id, domain, verification_value, verified_at, checked_at)
     VALUES ($1, $2, 'partner-portal-verification=e2e', now(), now())`,
    [dealer.id, REQUEST_DOMAIN],
  );
});

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail' && page) {
    await screenshot(page, `failure-dealer-usability-${ctx.task.name.slice(0, 30).replace(/\W+/g, '-')}`).catch(() => undefined);
    console.log('FAILURE at', page.url(), watch?.problems);
  }
  await context?.close();
  context = undefined;
  page = undefined;
});

afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  await dns?.stop();
});

async function managerPage(options: { viewport?: Viewport; language?: string; hash?: string } = {}) {
  context = await signedIn(e2e.browser, e2e.portal, manager.userId, options);
  context.setDefaultTimeout(15_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  ({ page, watch } = await newPage(context));
  await page.goto(`/manage-organization/${dealer.id}${options.hash ?? '#integrations'}`);
  return page;
}

const integrations = async (p: Page) => {
  const section = p.getByTestId('integrations');
  await section.getByRole('heading', { level: 2 }).waitFor();
  return section;
};

/** The focused element: its tag, text, accessible label and test id (body when the focus dropped to the page). */
const focused = (p: Page) =>
  p.evaluate(() => {
    const el = document.activeElement;
    return {
      tag: el?.tagName ?? null,
      text: (el?.textContent ?? '').trim(),
      label: el?.getAttribute('aria-label') ?? null,
      testId: el?.getAttribute('data-testid') ?? null,
    };
  });

async function expectAxeClean(p: Page, what: string): Promise<void> {
  await whenStill(p);
  expect(await axeProblems(p), `axe on ${what}`).toEqual([]);
  expect(watch!.problems, `console on ${what}`).toEqual([]);
}

/** A webhook for the events, made through the API, its secret registered at the receiver answering `status`. */
async function webhookFor(path: string, events: string[], status: number): Promise<string> {
  const api = await e2e.portal.sessionFor(manager.userId);
  const url = `${receiver.url}${path}`;
  const created = await api.post(`/api/organizations/${dealer.id}/webhooks`, { url, events, description: null });
  expect(created.status).toBe(201);
  receiver.hook(path, (created.body as { secret: string }).secret, () => ({ status }));
  return url;
}

describe('a secret shown once', () => {
  it('is not lost to Escape, × or a click outside: they ask first; copied, or "Done, I have copied it", closes at once', async () => {
    const p = await managerPage();
    const section = await integrations(p);

    // a service account: Escape asks, "Back to the secret" shows it again, × asks, a click outside asks, the answer closes
    await section.getByRole('button', { name: 'Create service account' }).click();
    const form = await openDialog(p, 'Create a service account');
    await form.getByLabel('Name').fill('Stock sync');
    await form.getByRole('checkbox', { name: 'User manager' }).check();
    await form.getByRole('button', { name: 'Create' }).click();
    const created = await openDialog(p, 'Service account Stock sync created');
    const secret = (await created.getByTestId('client-secret').textContent())!;
    await p.keyboard.press('Escape');
    await created.getByText('Close without copying?').waitFor();
    expect(await created.getByTestId('client-secret').count()).toBe(0);
    // the safe answer has the focus
    await expect.poll(() => focused(p)).toMatchObject({ text: 'Back to the secret' });
    await expectAxeClean(p, 'the question before closing');
    await screenshot(p, 'dealer-usability-once-shown-ask-1280');
    await created.getByRole('button', { name: 'Back to the secret' }).click();
    expect(await created.getByTestId('client-secret').textContent()).toBe(secret);
    await created.getByRole('button', { name: 'Close', exact: true }).click();
    await created.getByText('Close without copying?').waitFor();
    await created.getByRole('button', { name: 'Back to the secret' }).click();
    await created.getByTestId('client-secret').waitFor();
    // a click on the overlay, outside the dialog
    await p.mouse.click(5, 5);
    await created.getByText('Close without copying?').waitFor();
    await created.getByRole('button', { name: 'Close without copying' }).click();
    await created.waitFor({ state: 'detached' });
    await expect.poll(() => focused(p)).toMatchObject({ text: 'Create service account' });

    // a SCIM token: copied, Escape closes at once
    await section.getByRole('tab', { name: 'Directory (SCIM)' }).click();
    await section.getByRole('button', { name: 'Create token' }).click();
    const tokenForm = await openDialog(p, 'Create a SCIM token');
    await tokenForm.getByLabel('Name').fill('Entra ID');
    await tokenForm.getByRole('button', { name: 'Create' }).click();
    const token = await openDialog(p, 'Token Entra ID created');
    const value = (await token.getByTestId('scim-token').textContent())!;
    await token.getByRole('button', { name: 'Copy Token' }).click();
    expect(await p.evaluate(() => navigator.clipboard.readText())).toBe(value);
    await p.keyboard.press('Escape');
    await token.waitFor({ state: 'detached' });

    // a webhook's signing secret: "Done, I have copied it" closes at once
    await section.getByRole('tab', { name: 'Webhooks' }).click();
    await section.getByRole('button', { name: 'Add webhook' }).click();
    const hookForm = await openDialog(p, 'Add a webhook');
    await hookForm.getByLabel('URL').fill(`${receiver.url}/hooks/done`);
    await hookForm.getByRole('button', { name: 'Create' }).click();
    const hook = await openDialog(p, 'Webhook added');
    await hook.getByTestId('signing-secret').waitFor();
    await hook.getByRole('button', { name: 'Done, I have copied it' }).click();
    await hook.waitFor({ state: 'detached' });
    await expect.poll(() => focused(p)).toMatchObject({ text: 'Add webhook' });
  });
});

describe('the focus after an action', () => {
  it('stays on "Verify now" after a refused verification, and goes to the domain once verified', async () => {
    const domain = 'verify-focus-e2e.example';
    const api = await e2e.portal.sessionFor(manager.userId);
    const claimed = await api.post(`/api/organizations/${dealer.id}/domains`, { domain });
    expect(claimed.status).toBe(201);
    const p = await managerPage({ hash: '#identity' });
    const card = p.getByTestId('dealer-identity').locator(`[data-testid=domain][data-domain="${domain}"]`);
    const verify = card.getByRole('button', { name: `Verify now: ${domain}` });
    await verify.click();
    await card.getByRole('alert').filter({ hasText: 'The TXT record was not found' }).waitFor();
    await expect.poll(() => focused(p)).toMatchObject({ tag: 'BUTTON', label: `Verify now: ${domain}` });

    dns.set((await card.getByTestId('txt-name').textContent())!, (await card.getByTestId('txt-value').textContent())!);
    await verify.click();
    await card.getByText('Verified', { exact: true }).waitFor();
    await expect.poll(() => focused(p)).toMatchObject({ testId: 'domain-name', text: domain });
    // the next Tab goes on from the domain, not from the skip link at the top of the page
    await p.keyboard.press('Tab');
    expect(await p.evaluate(() => document.activeElement?.textContent?.trim())).not.toBe(webText('en-GB', 'skip_to_content'));
  });

  it('stays on "Send again" once the delivery is sent again', async () => {
    const url = await webhookFor('/hooks/focus', ['invitation.created'], 204);
    const api = await e2e.portal.sessionFor(manager.userId);
    expect((await api.post(`/api/organizations/${dealer.id}/invitations`, { email_address: 'focus@usability-e2e.example' })).status).toBe(
      201,
    );
    await receiver.waitFor('/hooks/focus', 1);
    const p = await managerPage();
    const section = await integrations(p);
    await section.getByRole('tab', { name: 'Webhooks' }).click();
    const card = section.locator(`[data-testid=webhook][data-url="${url}"]`);
    await card.getByRole('button', { name: `Deliveries of ${url}` }).click();
    const button = card.getByRole('button', { name: /^Send again: invitation\.created of focus@usability-e2e\.example, / });
    const label = (await button.getAttribute('aria-label'))!;
    await button.click();
    await p.locator('.mantine-Notification-root').filter({ hasText: 'invitation.created is being sent again' }).first().waitFor();
    await receiver.waitFor('/hooks/focus', 2);
    await expect.poll(() => focused(p)).toMatchObject({ tag: 'BUTTON', label });
  });
});

describe('the webhook deliveries', () => {
  it('name what each is about, read as failing while retried, and each "Send again" is named apart', async () => {
    const url = await webhookFor(FAILING_PATH, ['invitation.created'], 500);
    const api = await e2e.portal.sessionFor(manager.userId);
    const invitees = ['anna.dekker', 'bram.visser', 'carla.smit'].map((name) => `${name}@usability-e2e.example`);
    for (const email of invitees)
      expect((await api.post(`/api/organizations/${dealer.id}/invitations`, { email_address: email })).status).toBe(201);
    await receiver.waitFor(FAILING_PATH, invitees.length);

    const p = await managerPage();
    const section = await integrations(p);
    await section.getByRole('tab', { name: 'Webhooks' }).click();
    const card = section.locator(`[data-testid=webhook][data-url="${url}"]`);
    await card.getByRole('button', { name: `Deliveries of ${url}` }).click();
    const rows = card.getByTestId('webhook-delivery');
    const refresh = card.getByRole('button', { name: `Refresh the deliveries of ${url}` });
    await expect
      .poll(async () => {
        await refresh.click();
        return rows.evaluateAll((items) => items.filter((i) => i.getAttribute('data-status') === 'failing').length);
      })
      .toBe(invitees.length);
    expect((await card.getByTestId('delivery-subject').allTextContents()).sort()).toEqual([...invitees].sort());
    for (const row of await rows.all()) {
      const failing = row.getByTestId('delivery-failing');
      expect(await failing.textContent()).toMatch(/^Failing — retrying at \d{2}\/\d{2}\/\d{4},? \d{2}:\d{2}$/);
      // red, not the yellow of a delivery that waits for its first attempt
      const colour = await failing.evaluate((el) => getComputedStyle(el).color);
      const [r, g, b] = colour.match(/\d+/g)!.map(Number) as [number, number, number];
      expect(r, colour).toBeGreaterThan(g + 60);
      expect(r, colour).toBeGreaterThan(b + 60);
      expect(await row.getByText('Pending').count()).toBe(0);
    }
    const labels = await rows
      .getByRole('button', { name: /^Send again: / })
      .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label')));
    expect(labels).toHaveLength(invitees.length);
    expect(new Set(labels).size).toBe(invitees.length);
    for (const email of invitees) expect(labels.some((l) => l!.startsWith(`Send again: invitation.created of ${email}, `))).toBe(true);
    await expectAxeClean(p, 'the failing deliveries');
    await screenshot(p, 'dealer-usability-deliveries-1280');
  });
});

describe('the audit trail', () => {
  it("reads webhooks, their redelivery and a directory's provisioning in words, naming the person provisioned", async () => {
    const api = await e2e.portal.sessionFor(manager.userId);
    const made = await api.post(`/api/organizations/${dealer.id}/scim-tokens`, { name: 'Okta' });
    expect(made.status).toBe(201);
    const provisioned = await fetch(`${e2e.portal.url}/scim/v2/Users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${(made.body as { token: string }).token}`, 'content-type': 'application/scim+json' },
      body: JSON.stringify({
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: 'lotte.visser@usability-e2e.example',
        name: { givenName: 'Lotte', familyName: 'Visser' },
        active: true,
      }),
    });
    expect(provisioned.status).toBe(201);
    // the webhook hears of the next member the directory provisions; its delivery is sent again
    const url = await webhookFor('/hooks/audit', ['member.created'], 204);
    const again = await fetch(`${e2e.portal.url}/scim/v2/Users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${(made.body as { token: string }).token}`, 'content-type': 'application/scim+json' },
      body: JSON.stringify({
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: 'sem.bos@usability-e2e.example',
        active: true,
      }),
    });
    expect(again.status).toBe(201);
    await receiver.waitFor('/hooks/audit', 1);
    const hookId = ((await api.get(`/api/organizations/${dealer.id}/webhooks`)).body as { id: string; url: string }[]).find(
      (w) => w.url === url,
    )!.id;
    const deliveries = (await api.get(`/api/organizations/${dealer.id}/webhooks/${hookId}/deliveries`)).body as {
      deliveries: { id: string }[];
    };
    const retried = await api.post(
      `/api/organizations/${dealer.id}/webhooks/${hookId}/deliveries/${deliveries.deliveries[0]!.id}/retry`,
      {},
    );
    expect(retried.status).toBe(202);
    const p = await managerPage({ hash: '#audit-trail' });
    const trail = p.getByTestId('audit-trail');
    await trail.getByRole('button', { name: 'Show the audit trail' }).click();
    await trail.getByTestId('audit-entry').first().waitFor();
    const sentences = await trail.getByTestId('audit-sentence').allTextContents();
    // an action's key on its own ("invitation.create"), not the start of an event's name ("invitation.created")
    const keys = AUDIT_ACTIONS.map((action) => new RegExp(`(?<![\\w.])${action.replace(/\./g, '\\.')}(?![\\w.])`));
    const raw = sentences.filter((s) => keys.some((key) => key.test(s)));
    expect(raw, 'sentences with an action key').toEqual([]);
    // the redelivery names its event (an event's name, not an action's); a member without a name by their address
    expect(sentences).toContain('Mgr Tester sent a delivery of member.created again (Farmtech B.V.)');
    expect(sentences).toContain('SCIM: Okta created the account of sem.bos@usability-e2e.example in Farmtech B.V. from the directory');
    expect(sentences).toContain(`SCIM: Okta created the account of Lotte Visser in Farmtech B.V. from the directory`);
    expect(sentences.some((s) => s.includes(`added the webhook ${url} to Farmtech B.V.`))).toBe(true);
  });
});

describe('on a phone in Dutch (390 px)', () => {
  /** Whether a single-line text fits its box: the text's width against the room inside the box. */
  const selectFits = (select: Locator) =>
    select.evaluate((el: HTMLSelectElement) => {
      const style = getComputedStyle(el);
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const text = el.selectedOptions[0]?.textContent ?? '';
      const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return { text, fits: context.measureText(text).width <= room };
    });

  /** The characters after which a text's lines break (none when it is on one line). */
  const breaksOf = (locator: Locator) =>
    locator.evaluate((el) => {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      const chars: { char: string; top: number }[] = [];
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (let i = 0; i < node.textContent!.length; i++) {
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const rect = range.getClientRects()[0];
          if (rect) chars.push({ char: node.textContent![i]!, top: rect.top });
        }
      }
      const after: string[] = [];
      for (let i = 1; i < chars.length; i++) if (chars[i]!.top > chars[i - 1]!.top + 2) after.push(chars[i - 1]!.char);
      return after;
    });

  it('the language picker reads "Nederlands" whole, the requests count sits on its tab, addresses break between their parts', async () => {
    const request = await fetch(`${e2e.portal.url}/api/access-requests`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf': '1' },
      body: JSON.stringify({ email_address: `joris@${REQUEST_DOMAIN}`, first_name: 'Joris', last_name: 'Bakker', language_code: 'nl' }),
    });
    expect(request.status).toBe(202);
    const api = await e2e.portal.sessionFor(manager.userId);
    await expect
      .poll(async () => ((await api.get(`/api/organizations/${dealer.id}/access-requests`)).body as unknown[]).length)
      .toBeGreaterThan(0);

    const p = await managerPage({ viewport: { width: 390, height: 844 }, language: 'nl', hash: '#identity' });
    const picker = p.getByRole('combobox', { name: webText('nl', 'interface_language') });
    await expect.poll(() => selectFits(picker)).toEqual({ text: 'Nederlands', fits: true });

    const tab = p.getByTestId('dealer-identity').getByRole('tab', { name: /Toegangsaanvragen/ });
    await tab.waitFor();
    const badge = tab.locator('.mantine-Badge-root');
    await badge.waitFor();
    const [tabLabel, count] = await Promise.all([tab.locator('.mantine-Tabs-tabLabel').boundingBox(), badge.boundingBox()]);
    // on the label's line: the badge's middle within the label's height
    expect(count!.y + count!.height / 2).toBeGreaterThan(tabLabel!.y);
    expect(count!.y + count!.height / 2).toBeLessThan(tabLabel!.y + tabLabel!.height);
    expect(count!.x).toBeGreaterThan(tabLabel!.x + tabLabel!.width - 1);

    await p.goto(`/manage-organization/${dealer.id}#integrations`);
    const section = await integrations(p);
    const endpoint = section.getByTestId('token-endpoint');
    expect(await endpoint.textContent()).toBe(`${e2e.portal.url}/connect/token`);
    const breaks = await breaksOf(endpoint);
    expect(breaks.length, 'the token endpoint is on more than one line at 390 px').toBeGreaterThan(0);
    for (const after of breaks) expect('/.:?&=#-').toContain(after);
    await section.getByRole('tab', { name: 'Webhooks' }).click();
    for (const hook of await section.getByTestId('webhook').all())
      for (const after of await breaksOf(hook.locator('p').first())) expect('/.:?&=#-').toContain(after);
    await expectAxeClean(p, 'the integrations at 390 px in Dutch');
  });
});

describe('on a phone in Dutch (390 px), a userManager who sees only the requests', () => {
  it("has the requests' count on the heading's line", async () => {
    const requestsOnly = await createMember(e2e.portal, dealer, 'Req', (r) => (r.partner_portal.user_user_manager = true));
    const api = await e2e.portal.sessionFor(requestsOnly.userId);
    await expect
      .poll(async () => ((await api.get(`/api/organizations/${dealer.id}/access-requests`)).body as unknown[]).length)
      .toBeGreaterThan(0);
    context = await signedIn(e2e.browser, e2e.portal, requestsOnly.userId, { viewport: { width: 390, height: 844 }, language: 'nl' });
    context.setDefaultTimeout(15_000);
    ({ page, watch } = await open(context, `/manage-organization/${dealer.id}#identity`));
    const heading = page.getByTestId('dealer-identity').getByRole('heading', { level: 2 });
    const badge = heading.locator('.mantine-Badge-root');
    await badge.waitFor();
    const words = await heading
      .locator('span')
      .first()
      .evaluate((el) => {
        const rects = el.getClientRects();
        const last = rects[rects.length - 1]!;
        return { y: last.y, height: last.height };
      });
    const count = (await badge.boundingBox())!;
    expect(count.y + count.height / 2).toBeGreaterThan(words.y);
    expect(count.y + count.height / 2).toBeLessThan(words.y + words.height);
  });
});

describe('setting up an authenticator app', () => {
  it('copies the key to type by hand with its Copy button', async () => {
    const user = await createUser(e2e.portal);
    context = await signedIn(e2e.browser, e2e.portal, user.id);
    context.setDefaultTimeout(15_000);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    ({ page, watch } = await open(context, '/profile'));
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const key = page.getByTestId('totp-key');
    await key.waitFor();
    await page.getByRole('button', { name: 'Copy key' }).click();
    await page.getByRole('button', { name: 'Key copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe((await key.textContent())!.replace(/\s+/g, ''));
    // on a phone the key is read whole, its button beside it takes nothing from it
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => key.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    await expectAxeClean(page, 'the authenticator set-up');
  });
});
