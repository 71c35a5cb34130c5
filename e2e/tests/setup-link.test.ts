import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import {
  createMember,
  createOrg,
  startDealerIdp,
  startDnsServer,
  type ActorRef,
  type DealerIdp,
  type DnsServer,
  type Org,
} from '@partner-portal/server/test-kit';
import { axeProblems, newPage, whenStill, type PageWatch } from '../support/browser.js';
import { rootOrganization } from '../support/organizations.js';
import { openContext, screenshot, usePortalAndBrowser, type Viewport } from '../support/portal.js';

/**
 * A dealer's IT person sets up an organization through a setup link (the operating contract,
 * "Setup links for a dealer's IT person"), in Chromium against the real server, database, SMTP
 * sink, a DNS server and a second oidc-provider of the test kit: a manager makes the link (API),
 * the IT person opens it, takes the code from the e-mail, adds and verifies a domain against the
 * test DNS server, creates a connection to the dealer's provider switched off, tests it and switches it on,
 * and makes a SCIM token — in Dutch at 390 px and in Brazilian Portuguese at 1280 px, one test each.
 */
const env: Record<string, string> = {};
let dns: DnsServer;
beforeAll(async () => {
  dns = await startDnsServer();
  env.DNS_SERVERS = dns.address;
});
const e2e = usePortalAndBrowser(env);
afterAll(async () => {
  await dns?.stop();
});

const CLIENT_ID = 'setup-link-e2e';
const CLIENT_SECRET = 'setup-link-e2e-secret-0123456789';
let dealer: Org;
let manager: ActorRef;
let idp: DealerIdp;
let context: BrowserContext | undefined;
let page: Page | undefined;
let watch: PageWatch | undefined;

const KEYS = [
  'code_send',
  'code_label',
  'code_continue',
  'domain',
  'domain_add',
  'domain_verify',
  'verified',
  'sso_name',
  'sso_issuer',
  'sso_client_id',
  'sso_client_secret',
  'sso_create',
  'sso_off',
  'sso_on',
  'sso_switch_on',
  'sso_test',
  'scim_token_name',
  'scim_create',
] as const;

/** The setup page's texts in a language, as the IT person reads them. */
function texts(language: string): Record<(typeof KEYS)[number], string> {
  const file = new URL(`../../apps/web/src/features/setup/locales/${language}.json`, import.meta.url);
  const all = (JSON.parse(readFileSync(file, 'utf8')) as { setup: Record<string, string> }).setup;
  return Object.fromEntries(KEYS.map((key) => [key, all[key] ?? key])) as Record<(typeof KEYS)[number], string>;
}

beforeAll(async () => {
  const root = await rootOrganization(e2e.portal);
  dealer = await createOrg(e2e.portal, root, 'Agro Setup', { canCreate: true });
  manager = await createMember(e2e.portal, dealer, 'Chief', (r) => {
    r.partner_portal.user_user_manager = true;
    r.partner_portal.user_sub_organization_manager = true;
  });
  idp = await startDealerIdp({
    accounts: [],
    clients: [
      { client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uris: [`${e2e.portal.url}/api/identity/login-external-callback`] },
    ],
  });
});

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail' && page) {
    await screenshot(page, `failure-setup-link-${ctx.task.name.slice(0, 30).replace(/\W+/g, '-')}`).catch(() => undefined);
    console.log('FAILURE at', page.url(), watch?.problems);
  }
  await context?.close();
  context = undefined;
  page = undefined;
});
afterAll(async () => {
  await idp?.close();
});

async function setUp(language: string, viewport: Viewport, domain: string, email: string): Promise<void> {
  const t = texts(language);
  const client = await e2e.portal.sessionFor(manager.userId);
  const made = await client.post(`/api/organizations/${dealer.id}/setup-links`, {
    email,
    capabilities: ['domains', 'sso', 'scim'],
    expires_in_days: 2,
  });
  expect(made.status, made.text).toBe(201);
  const url = new URL(made.body.url as string);

  context = await openContext(e2e.browser, e2e.portal, { viewport, language });
  context.setDefaultTimeout(15_000);
  ({ page, watch } = await newPage(context));
  const p = page;
  await p.goto(url.pathname);
  await p.getByTestId('setup-code-step').waitFor();

  // the code, from the e-mail
  const before = e2e.portal.smtp.to(email).length;
  await p.getByRole('button', { name: t.code_send }).click();
  const mail = await e2e.portal.smtp.waitFor(email, (m) => /\b\d{8}\b/.test(m.subject) && e2e.portal.smtp.to(email).indexOf(m) >= before);
  const code = /\b(\d{8})\b/.exec(mail.subject)![1]!;
  await p.getByLabel(t.code_label).fill(code);
  await p.getByRole('button', { name: t.code_continue }).click();

  // a domain, verified against the test DNS server
  const domains = p.getByTestId('setup-domains');
  await domains.getByLabel(t.domain, { exact: true }).fill(domain);
  await domains.getByRole('button', { name: t.domain_add }).click();
  const name = await p.getByTestId('setup-txt-name').innerText();
  const value = await p.getByTestId('setup-txt-value').innerText();
  dns.set(name.trim(), value.trim());
  await domains.getByRole('button', { name: t.domain_verify }).click();
  await domains.locator(`[data-domain="${domain}"]`).getByText(t.verified, { exact: true }).waitFor();

  // a connection to the dealer's provider, created switched off, then switched on
  const sso = p.getByTestId('setup-sso');
  expect(await p.getByTestId('setup-redirect-uri').innerText()).toBe(`${e2e.portal.url}/api/identity/login-external-callback`);
  await sso.getByLabel(t.sso_name).fill(`Agro Entra ${language}`);
  await sso.getByLabel(t.sso_issuer).fill(idp.issuer);
  await sso.getByLabel(t.sso_client_id).fill(CLIENT_ID);
  await sso.getByLabel(t.sso_client_secret).fill(CLIENT_SECRET);
  await sso.getByLabel(domain).check();
  await sso.getByRole('button', { name: t.sso_create }).click();
  const connection = sso.getByTestId('setup-connection').filter({ hasText: `Agro Entra ${language}` });
  await connection.getByText(t.sso_off, { exact: true }).waitFor();
  // the test sign-in at the dealer's provider, as a member of the domain; back on the setup page
  const worker = `worker@${domain}`;
  const member = await createMember(e2e.portal, dealer, `Worker ${language}`, () => undefined);
  await e2e.portal.services.db.query('UPDATE users SET email = $2 WHERE id = $1', [member.userId, worker]);
  await e2e.portal.services.db.query('UPDATE memberships SET email = $2 WHERE id = $1', [member.memberId, worker]);
  idp.addAccount({ sub: `worker-${language}`, email: worker, email_verified: true });
  await connection.getByRole('link', { name: t.sso_test }).click();
  await p.locator('input[name="account"]').fill(`worker-${language}`);
  await p.getByRole('button', { name: 'Sign in' }).click();
  await p.getByTestId('setup-sso-test').filter({ hasText: worker }).waitFor();
  await connection.getByRole('button', { name: t.sso_switch_on }).click();
  await connection.getByText(t.sso_on, { exact: true }).waitFor();

  // a SCIM token, shown once
  const scim = p.getByTestId('setup-scim');
  await scim.getByLabel(t.scim_token_name).fill('Agro directory');
  await scim.getByRole('button', { name: t.scim_create }).click();
  expect(await p.getByTestId('setup-scim-token').innerText()).toMatch(/^ppscim_/);

  await whenStill(p);
  await screenshot(p, `setup-link-${language}-${typeof viewport === 'string' ? viewport : viewport.width}`, { fullPage: true });
  expect(await axeProblems(p), 'axe on the setup page').toEqual([]);
  expect(watch.problems, 'console on the setup page').toEqual([]);
  const overflow = await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, 'horizontal overflow').toBeLessThanOrEqual(0);

  // the audit names the link; its maker heard of each step
  const audit = await e2e.portal.services.db.query<{ action: string }>(
    `SELECT action FROM audit_log WHERE actor_kind = 'setup_link' AND actor_id = $1 ORDER BY id`,
    [made.body.id],
  );
  expect(audit.rows.map((r) => r.action)).toEqual([
    'setup_link.open',
    'domain.claim',
    'domain.verify',
    'sso_connection.create',
    'sso_connection.update',
    'scim_token.create',
  ]);
}

/** Each test walks the whole setup (about 15 s alone): on CI's busy cores it may take two minutes. */
const WALK_TIMEOUT = 120_000;

describe('the setup page of a setup link', () => {
  it(
    'in Dutch at 390 px: code, domain verified through DNS, connection made, tested and switched on, SCIM token',
    async () => {
      await setUp('nl', { width: 390, height: 844 }, 'agro-nl-e2e.example', 'it.nl@agro-setup-e2e.example');
    },
    WALK_TIMEOUT,
  );

  it(
    'in Brazilian Portuguese at 1280 px',
    async () => {
      await setUp('pt-BR', 'wide', 'agro-br-e2e.example', 'it.br@agro-setup-e2e.example');
    },
    WALK_TIMEOUT,
  );
});
