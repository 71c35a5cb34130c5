import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import {
  createMember,
  createOrg,
  startReceiver,
  startWorker,
  type ActorRef,
  type Org,
  type Receiver,
} from '@partner-portal/server/test-kit';
import { axeProblems, newPage, whenStill, type PageWatch } from '../support/browser.js';
import { rootOrganization } from '../support/organizations.js';
import { openDialog, SCREENSHOTS, screenshot, signedIn, usePortalAndBrowser, type Viewport } from '../support/portal.js';
import { webText } from '../support/texts.js';

/**
 * The manage page's "Integrations" section, in Chromium against the real server, database and a
 * webhook receiver on 127.0.0.1 (the test portal runs with NODE_ENV=test, where private addresses
 * are allowed; docs/integrations.md, "Webhooks"): a manager creates a service account and the test
 * takes a token with the secret read from the page and calls /api with it; creates a SCIM token and
 * the test lists /scim/v2/Users with it; adds a webhook, a change is delivered, the receiver answers
 * 500 once and "Send again" delivers it. The section is axe clean, and looked at in Dutch and
 * Brazilian Portuguese at 390, 768 and 1280 px.
 */
const e2e = usePortalAndBrowser();
let receiver: Receiver;
let worker: { stop: () => Promise<void> } | undefined;

/** A dealer whose manager holds both manager rights. */
let dealer: Org;
let manager: ActorRef;
const HOOK_PATH = '/hooks/partner-portal';

let context: BrowserContext | undefined;
let page: Page | undefined;
let watch: PageWatch | undefined;

beforeAll(async () => {
  receiver = await startReceiver();
  // the portal of the test kit starts no background jobs: the webhooks' sender, as jobs.ts starts it
  worker = await startWorker(e2e.portal);
  dealer = await createOrg(e2e.portal, await rootOrganization(e2e.portal), 'Akkerbouw Integraal', { canCreate: true });
  manager = await createMember(e2e.portal, dealer, 'Mgr', (r) => {
    r.partner_portal.user_user_manager = true;
    r.partner_portal.user_sub_organization_manager = true;
  });
});

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail' && page) {
    await screenshot(page, `failure-integrations-${ctx.task.name.slice(0, 30).replace(/\W+/g, '-')}`).catch(() => undefined);
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

async function managerPage(options: { viewport?: Viewport; language?: string } = {}) {
  context = await signedIn(e2e.browser, e2e.portal, manager.userId, options);
  context.setDefaultTimeout(15_000);
  ({ page, watch } = await newPage(context));
  await page.goto(`/manage-organization/${dealer.id}#integrations`);
  const section = page.getByTestId('integrations');
  await section.getByRole('heading', { level: 2 }).waitFor();
  return { p: page, section };
}

const toast = (p: Page, text: string | RegExp) => p.locator('.mantine-Notification-root').filter({ hasText: text }).first();

/** Axe, the console and the width of the page as it stands. */
async function expectClean(p: Page, w: PageWatch, what: string): Promise<void> {
  await whenStill(p);
  expect(await axeProblems(p), `axe on ${what}`).toEqual([]);
  expect(w.problems, `console on ${what}`).toEqual([]);
  const overflow = await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `horizontal overflow on ${what}`).toBeLessThanOrEqual(0);
}

/** The focused element's text and accessible label. */
const focused = (p: Page) =>
  p.evaluate(() => ({
    text: (document.activeElement?.textContent ?? '').trim(),
    label: document.activeElement?.getAttribute('aria-label') ?? null,
  }));

describe('service accounts', () => {
  it('a manager creates one, copies its secret shown once; the application takes a token and calls /api; deleted, the token stops', async () => {
    const { p, section } = await managerPage();
    await p.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    // the token endpoint and the scope, to copy
    expect(await section.getByTestId('token-endpoint').textContent()).toBe(`${e2e.portal.url}/connect/token`);
    expect(await section.getByTestId('scope').textContent()).toBe('partner_portal_api');
    await section.getByText('No service accounts yet.').waitFor();
    await expectClean(p, watch!, 'the service accounts');

    await section.getByRole('button', { name: 'Create service account' }).click();
    const form = await openDialog(p, 'Create a service account');
    // a name is needed, said in words at the field
    await form.getByRole('button', { name: 'Create' }).click();
    await form.getByText(webText('en-GB', 'required_field')).waitFor();
    // and at least one right, said at the rights (the server's rule, checked before it is asked)
    await form.getByText(webText('en-GB', 'service_account_needs_a_right')).waitFor();
    await form.getByLabel('Name').fill('ERP sync');
    await form.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => form.getByRole('group', { name: 'Rights' }).getAttribute('aria-describedby')).toMatch(/-error$/);
    await screenshot(p, 'integrations-service-account-no-right-1280');
    await form.getByRole('checkbox', { name: 'User manager' }).check();
    await expectClean(p, watch!, 'the service account form');
    await form.getByRole('button', { name: 'Create' }).click();

    const created = await openDialog(p, 'Service account ERP sync created');
    await created.getByText('you will not see it again').waitFor();
    const clientId = (await created.getByTestId('client-id').textContent())!;
    const secret = (await created.getByTestId('client-secret').textContent())!;
    expect(clientId).toMatch(/^sa\.[0-9a-f-]{36}$/);
    expect(secret.length).toBeGreaterThanOrEqual(40);
    expect(await created.getByTestId('token-endpoint').textContent()).toBe(`${e2e.portal.url}/connect/token`);
    await created.getByRole('button', { name: 'Copy Client secret' }).click();
    await created.getByRole('button', { name: 'Copied Client secret' }).waitFor();
    expect(await p.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await expectClean(p, watch!, 'the secret shown once');
    await screenshot(p, 'integrations-service-account-secret-1280');
    await created.getByRole('button', { name: 'Done' }).click();
    await created.waitFor({ state: 'detached' });
    // the focus is back on the button that opened the dialog
    await expect.poll(() => focused(p)).toMatchObject({ text: 'Create service account' });

    const card = section.locator('[data-testid=service-account][data-name="ERP sync"]');
    await card.getByText(clientId).waitFor();
    await card.getByText('User manager').waitFor();
    expect(await section.textContent()).not.toContain(secret);
    await expectClean(p, watch!, 'a service account');

    // the application: a token with the secret read from the page, then /api as the account
    const token = await fetch(`${e2e.portal.url}/connect/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials&scope=partner_portal_api',
    });
    expect(token.status).toBe(200);
    const { access_token } = (await token.json()) as { access_token: string };
    const call = () => fetch(`${e2e.portal.url}/api/organizations/${dealer.id}`, { headers: { authorization: `Bearer ${access_token}` } });
    const organization = await call();
    expect(organization.status).toBe(200);
    expect(((await organization.json()) as { name: string }).name).toBe('Akkerbouw Integraal');

    // deleted after a confirmation: the row is gone, the focus on the section's heading, the token refused
    await card.getByRole('button', { name: 'Delete ERP sync' }).click();
    const confirm = await openDialog(p, 'Delete service account');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await toast(p, 'Service account ERP sync deleted').waitFor();
    await card.waitFor({ state: 'detached' });
    await expect.poll(() => focused(p)).toMatchObject({ text: 'Integrations' });
    expect((await call()).status).toBe(401);
  });
});

describe('SCIM tokens', () => {
  it('made from the keyboard, its token lists the users at /scim/v2; past ten tokens the refusal is translated', async () => {
    const { p, section } = await managerPage();
    await section.getByRole('tab', { name: 'Directory (SCIM)' }).click();
    expect(await section.getByTestId('scim-base-url').textContent()).toBe(`${e2e.portal.url}/scim/v2`);
    // by keyboard only: the button, the name, Enter; the warning takes the focus; Escape closes
    await section.getByRole('button', { name: 'Create token' }).focus();
    await p.keyboard.press('Enter');
    const form = await openDialog(p, 'Create a SCIM token');
    await expect.poll(() => p.evaluate(() => document.activeElement?.tagName)).toBe('INPUT');
    await p.keyboard.type('Entra ID');
    await p.keyboard.press('Enter');
    const created = await openDialog(p, 'Token Entra ID created');
    await expect.poll(() => focused(p)).toMatchObject({ text: expect.stringContaining('you will not see it again') as string });
    const token = (await created.getByTestId('scim-token').textContent())!;
    expect(token).toMatch(/^ppscim_/);
    expect(await created.getByTestId('scim-base-url').textContent()).toBe(`${e2e.portal.url}/scim/v2`);
    // Escape first asks whether to close without copying (dealer-usability.test.ts tries every way)
    await p.keyboard.press('Escape');
    await created.getByRole('button', { name: 'Close without copying' }).click();
    await form.waitFor({ state: 'detached' });
    await expect.poll(() => focused(p)).toMatchObject({ text: 'Create token' });
    await section.locator('[data-testid=scim-token][data-name="Entra ID"]').getByText(`by ${manager.email}`).waitFor();
    await expectClean(p, watch!, 'the SCIM tokens');

    const users = await fetch(`${e2e.portal.url}/scim/v2/Users`, { headers: { authorization: `Bearer ${token}` } });
    expect(users.status).toBe(200);
    const list = (await users.json()) as { totalResults: number; Resources: { userName: string }[] };
    expect(list.Resources.map((u) => u.userName)).toContain(manager.email);

    // the organization keeps at most ten: the server's refusal, translated, above the buttons
    const api = await e2e.portal.sessionFor(manager.userId);
    for (let i = 2; i <= 10; i++)
      expect((await api.post(`/api/organizations/${dealer.id}/scim-tokens`, { name: `Okta ${i}` })).status).toBe(201);
    await section.getByRole('button', { name: 'Create token' }).click();
    const refused = await openDialog(p, 'Create a SCIM token');
    await refused.getByLabel('Name').fill('One too many');
    await refused.getByRole('button', { name: 'Create' }).click();
    await refused
      .getByRole('alert')
      .filter({ hasText: webText('en-GB', 'too_many_scim_tokens') })
      .waitFor();
    await refused.getByRole('button', { name: 'Cancel' }).click();
    for (const t of ((await api.get(`/api/organizations/${dealer.id}/scim-tokens`)).body as { id: string; name: string }[]).filter((t) =>
      t.name.startsWith('Okta'),
    ))
      expect((await api.delete(`/api/organizations/${dealer.id}/scim-tokens/${t.id}`)).status).toBe(204);
  });
});

describe('webhooks', () => {
  it('a manager adds one for chosen events; a change is delivered, refused once with 500, and sent again from the list', async () => {
    const { p, section } = await managerPage();
    await section.getByRole('tab', { name: 'Webhooks' }).click();
    await section.getByRole('button', { name: 'Add webhook' }).click();
    const form = await openDialog(p, 'Add a webhook');
    // a URL the contract refuses, said in words at the field
    await form.getByLabel('URL').fill('ftp://erp.example/hooks');
    await form.getByRole('radio', { name: 'Only these events' }).check();
    await form.getByRole('button', { name: 'Create' }).click();
    await form.getByText(webText('en-GB', 'invalid_webhook_url')).waitFor();
    await form.getByText(webText('en-GB', 'required_field')).waitFor();
    const url = `${receiver.url}${HOOK_PATH}`;
    await form.getByLabel('URL').fill(url);
    await form.getByRole('checkbox', { name: 'invitation.created' }).check();
    await form.getByLabel('Description (optional)').fill('ERP: new invitations');
    await expectClean(p, watch!, 'the webhook form');
    await form.getByRole('button', { name: 'Create' }).click();

    const created = await openDialog(p, 'Webhook added');
    const secret = (await created.getByTestId('signing-secret').textContent())!;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    // the receiver checks every delivery's signature with it; it answers the first one 500
    receiver.hook(HOOK_PATH, secret, (n) => ({ status: n === 0 ? 500 : 204 }));
    await created.getByRole('button', { name: 'Done' }).click();
    await created.waitFor({ state: 'detached' });
    await expect.poll(() => focused(p)).toMatchObject({ text: 'Add webhook' });

    const card = section.locator(`[data-testid=webhook][data-url="${url}"]`);
    await card.getByText('invitation.created').waitFor();
    await card.getByText('ERP: new invitations').waitFor();

    // a change that emits the event: the manager invites someone
    const api = await e2e.portal.sessionFor(manager.userId);
    expect((await api.post(`/api/organizations/${dealer.id}/invitations`, { email_address: 'nieuw@akkerbouw-e2e.example' })).status).toBe(
      201,
    );
    const [first] = await receiver.waitFor(HOOK_PATH, 1);
    expect(first!.payload?.type).toBe('invitation.created');

    await card.getByRole('button', { name: `Deliveries of ${url}` }).click();
    const delivery = card.locator('[data-testid=webhook-delivery][data-event="invitation.created"]');
    const refresh = card.getByRole('button', { name: `Refresh the deliveries of ${url}` });
    await expect
      .poll(async () => {
        await refresh.click();
        return delivery
          .getByTestId('delivery-answer')
          .textContent({ timeout: 2_000 })
          .catch(() => null);
      })
      .toBe('HTTP 500');
    await delivery.getByText(/^Failing — retrying at /).waitFor();
    await delivery.getByText('1 attempt').waitFor();
    await expectClean(p, watch!, 'the deliveries');

    await delivery.getByRole('button', { name: /^Send again: invitation\.created of / }).click();
    await toast(p, 'invitation.created is being sent again').waitFor();
    const [, again] = await receiver.waitFor(HOOK_PATH, 2);
    // the same delivery: the same webhook-id
    expect(again!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    await expect
      .poll(async () => {
        await refresh.click();
        return delivery.getAttribute('data-state');
      })
      .toBe('succeeded');
    await delivery.getByText('Delivered').waitFor();
    await delivery.getByText('2 attempts').waitFor();
    expect(await delivery.getByTestId('delivery-answer').textContent()).toBe('HTTP 204');

    // edited to every event: the secret stays, the focus comes back to Edit
    await card.getByRole('button', { name: `Edit the webhook ${url}` }).click();
    const edit = await openDialog(p, 'Edit webhook');
    await edit.getByRole('radio', { name: 'All events, also those added later' }).check();
    await edit.getByRole('button', { name: 'Save' }).click();
    await toast(p, `Webhook ${url} saved`).waitFor();
    await card.getByText('All events', { exact: true }).waitFor();
    await expect.poll(() => focused(p)).toMatchObject({ label: `Edit the webhook ${url}` });
  });
});

describe('the section in Dutch and Brazilian Portuguese at 390, 768 and 1280 px', () => {
  beforeAll(async () => {
    // something in every panel: a service account with both rights (the SCIM token, the webhook and its deliveries are the tests' above)
    const api = await e2e.portal.sessionFor(manager.userId);
    const account = await api.post(`/api/organizations/${dealer.id}/service-accounts`, {
      name: 'Voorraadbeheer en bestellingen',
      user_manager: true,
      organization_manager: true,
    });
    expect(account.status).toBe(201);
  });

  // one page per language, resized to each width (a page load per width would double the time)
  for (const language of ['nl', 'pt-BR']) {
    it(`${language} at 390, 768 and 1280 px: nothing wider than the screen, the webhooks with their deliveries axe clean`, async () => {
      const { p, section } = await managerPage({ viewport: { width: 390, height: 900 }, language });
      for (const width of [390, 768, 1280]) {
        await p.setViewportSize({ width, height: 900 });
        const items = ['service-account', 'scim-token', 'webhook'];
        for (const [i, item] of items.entries()) {
          await section.getByRole('tab').nth(i).click();
          await section.getByTestId(item).first().waitFor();
          const overflow = await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          expect(overflow, `horizontal overflow of ${item} in ${language} at ${width} px`).toBeLessThanOrEqual(0);
          // the narrowest screen is where a panel may break: looked at there (every panel is axe checked in English above)
          if (width === 390 && item !== 'webhook')
            await section.screenshot({ path: `${SCREENSHOTS}integrations-${item}-${language}-${width}.png` });
        }
        // the webhooks tab opens anew (keepMounted false): its deliveries are folded again
        const deliveries = webText(language, 'integrations.deliveries_show_label').replace('{{url}}', `${receiver.url}${HOOK_PATH}`);
        await section.getByRole('button', { name: deliveries, exact: true }).click();
        await section.getByTestId('webhook-delivery').first().waitFor();
        await expectClean(p, watch!, `the webhooks in ${language} at ${width} px`);
        // once per language and width: the webhooks with their deliveries
        await section.screenshot({ path: `${SCREENSHOTS}integrations-${language}-${width}.png` });
      }
    });
  }
});
