import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDealerIdp, type DealerIdp } from '../support/dealer-idp.js';
import { startDnsServer, type DnsServer } from '../support/dns-server.js';
import { NO_LOGIN_LIMITS, startPortal, type TestPortal } from '../support/portal.js';
import { BearerClient, createAccount, tokenOf } from '../service-accounts/support.js';
import { Browser, buildDealerTree, createPerson, verifyDomain, type DealerTree, type Person } from '../sso/support.js';
import { codeFor, ItPerson, makeLink } from './support.js';

/**
 * Setup links (the operating contract, "Setup links for a dealer's IT person"): who may make one
 * and with which capabilities, the e-mails (the link in the maker's language, the one-time code),
 * opening it with the code (wrong codes, too many), what its session may do — the same routes a
 * manager calls, for its capabilities, in its organization's subtree — and may not, revoking and
 * expiry ending it at once, the audit naming the link and its address, and the maker told of each
 * step. A real SMTP sink, a DNS server on 127.0.0.1 and a second oidc-provider as the dealer's IdP.
 */
let portal: TestPortal;
let dns: DnsServer;
let idp: DealerIdp;
let tree: DealerTree;
let dealerManager: Person;
let orgOnly: Person;
let usersOnly: Person;
let regionManager: Person;
let plain: Person;

const SECRET = 'setup-client-secret-0123456789abcdef';

beforeAll(async () => {
  dns = await startDnsServer();
  idp = await startDealerIdp();
  portal = await startPortal({ ...NO_LOGIN_LIMITS, DNS_SERVERS: dns.address });
  idp.addClient({
    client_id: 'setup-portal',
    client_secret: SECRET,
    redirect_uris: [`${portal.url}/api/identity/login-external-callback`],
  });
  tree = await buildDealerTree(portal);
  dealerManager = await createPerson(portal, tree.dealer, 'chief@setup-dealer.example', { manager: 'both' });
  orgOnly = await createPerson(portal, tree.dealer, 'orgs@setup-dealer.example', { manager: 'organization' });
  usersOnly = await createPerson(portal, tree.dealer, 'users@setup-dealer.example', { manager: 'user' });
  regionManager = await createPerson(portal, tree.region, 'region@setup-dealer.example', { manager: 'both' });
  plain = await createPerson(portal, tree.dealer, 'plain@setup-dealer.example');
  await portal.services.db.query(`UPDATE users SET language_code = 'nl' WHERE id = $1`, [dealerManager.userId]);
});
afterAll(async () => {
  await portal?.close();
  await idp?.close();
  await dns?.stop();
});

const linksUrl = (organizationId: string) => `/api/organizations/${organizationId}/setup-links`;
let n = 0;
const itAddress = () => `it${++n}.${Date.now()}@setup-it.example`;

describe('POST /api/organizations/{id}/setup-links', () => {
  it('makes a link of ≥128 bits kept as a hash, e-mailed in the maker’s language; lists it pending; audited', async () => {
    const email = itAddress();
    const link = await makeLink(dealerManager.client, tree.dealer.id, {
      email,
      capabilities: ['domains', 'sso', 'scim'],
      expires_in_days: 3,
    });
    expect(link.url).toBe(`${portal.url}/setup/${link.token}`);
    expect(link.token).toMatch(/^[\w-]{43}$/);
    const stored = await portal.services.db.query<{ token_hash: string }>('SELECT token_hash FROM setup_links WHERE id = $1', [link.id]);
    expect(stored.rows[0]!.token_hash).not.toContain(link.token);
    const days = (new Date(link.expires_at).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(2.9);
    expect(days).toBeLessThan(3.1);

    const mail = await portal.smtp.waitFor(email);
    expect(mail.subject).toContain('Stel het aanmelden voor');
    expect(mail.text).toContain(link.url);
    expect(mail.html).toContain(link.url);

    const listed = await dealerManager.client.get(linksUrl(tree.dealer.id));
    expect(listed.status).toBe(200);
    expect(listed.body.find((l: { id: string }) => l.id === link.id)).toEqual({
      id: link.id,
      email,
      capabilities: ['domains', 'sso', 'scim'],
      state: 'pending',
      expires_at: link.expires_at,
      created_by: dealerManager.userId,
      created_by_email: dealerManager.email,
    });
    expect(JSON.stringify(listed.body)).not.toContain(link.token);
    const audit = await portal.services.db.query(
      `SELECT actor_user_id FROM audit_log WHERE action = 'setup_link.create' AND target_id = $1`,
      [link.id],
    );
    expect(audit.rows).toEqual([{ actor_user_id: dealerManager.userId }]);
  });

  it('grants only what the maker holds: scim needs userManager, the others organizationManager (403); people only; the subtree; bad input 400', async () => {
    const email = itAddress();
    const scimByOrgManager = await orgOnly.client.post(linksUrl(tree.dealer.id), {
      email,
      capabilities: ['domains', 'scim'],
      expires_in_days: 2,
    });
    expect(scimByOrgManager.status).toBe(403);
    expect(scimByOrgManager.body.i18NTranslationKey).toBe('forbidden');
    expect(
      (await orgOnly.client.post(linksUrl(tree.dealer.id), { email, capabilities: ['domains', 'sso'], expires_in_days: 2 })).status,
    ).toBe(201);
    expect((await usersOnly.client.post(linksUrl(tree.dealer.id), { email, capabilities: ['sso'], expires_in_days: 2 })).status).toBe(403);
    expect((await usersOnly.client.post(linksUrl(tree.dealer.id), { email, capabilities: ['scim'], expires_in_days: 2 })).status).toBe(201);
    expect((await plain.client.post(linksUrl(tree.dealer.id), { email, capabilities: ['domains'], expires_in_days: 2 })).status).toBe(403);
    // a manager below reaches no higher
    expect(
      (await regionManager.client.post(linksUrl(tree.dealer.id), { email, capabilities: ['domains'], expires_in_days: 2 })).status,
    ).toBe(403);
    expect((await plain.client.get(linksUrl(tree.dealer.id))).status).toBe(403);
    for (const body of [
      { email, capabilities: [], expires_in_days: 2 },
      { email, capabilities: ['everything'], expires_in_days: 2 },
      { email, capabilities: ['domains'], expires_in_days: 15 },
      { email, capabilities: ['domains'], expires_in_days: 0 },
      { email: 'not an address', capabilities: ['domains'], expires_in_days: 2 },
    ]) {
      const res = await dealerManager.client.post(linksUrl(tree.dealer.id), body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const account = await createAccount(dealerManager.client, tree.dealer.id, {
      name: 'Setup ERP',
      organization_manager: true,
      user_manager: true,
    });
    const machine = new BearerClient(portal.url, await tokenOf(portal.url, account));
    const refused = await machine.post(linksUrl(tree.dealer.id), { email, capabilities: ['domains'], expires_in_days: 2 });
    expect(refused.status).toBe(403);
    expect(refused.body.i18NTranslationKey).toBe('service_account_not_allowed');
    expect((await machine.get(linksUrl(tree.dealer.id))).status).toBe(403);
  });

  it('is refused by the connection policy above (409 connections_not_allowed)', async () => {
    expect(
      (await dealerManager.client.put(`/api/organizations/${tree.dealer.id}/connection-policy`, { sub_organizations_may_connect: false }))
        .status,
    ).toBe(204);
    try {
      const refused = await dealerManager.client.post(linksUrl(tree.region.id), {
        email: itAddress(),
        capabilities: ['domains'],
        expires_in_days: 2,
      });
      expect(refused.status).toBe(409);
      expect(refused.body.i18NTranslationKey).toBe('connections_not_allowed');
      expect(
        (await dealerManager.client.post(linksUrl(tree.dealer.id), { email: itAddress(), capabilities: ['domains'], expires_in_days: 2 }))
          .status,
      ).toBe(201);
    } finally {
      await dealerManager.client.put(`/api/organizations/${tree.dealer.id}/connection-policy`, { sub_organizations_may_connect: true });
    }
  });
});

describe('opening a link', () => {
  it('tells what the link is (masked address); one 404 for unknown, revoked and expired links', async () => {
    const email = itAddress();
    const link = await makeLink(dealerManager.client, tree.dealer.id, { email, capabilities: ['domains'] });
    const it = new ItPerson(portal, email);
    const info = await it.client.get(`/api/setup/${link.token}`);
    expect(info.status, info.text).toBe(200);
    expect(info.body).toEqual({
      organization_id: tree.dealer.id,
      organization_name: tree.dealer.name,
      capabilities: ['domains'],
      state: 'pending',
      email: `i***@setup-it.example`,
      expires_at: link.expires_at,
      signed_in: false,
    });
    const unknown = await it.client.get(`/api/setup/${'x'.repeat(43)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.i18NTranslationKey).toBe('unknown_setup_link');
    await portal.services.db.query(`UPDATE setup_links SET expires_at = now() - interval '1 second' WHERE id = $1`, [link.id]);
    const expired = await it.client.get(`/api/setup/${link.token}`);
    expect(expired.status).toBe(404);
    expect(expired.body.i18NTranslationKey).toBe('unknown_setup_link');
    expect((await it.askCode(link.token)).status).toBe(404);
    const listed = await dealerManager.client.get(linksUrl(tree.dealer.id));
    expect(listed.body.find((l: { id: string }) => l.id === link.id).state).toBe('expired');
  });

  it('takes the e-mailed code once; a wrong code is 400 invalid_code; five wrong answers end the code', async () => {
    const email = itAddress();
    const link = await makeLink(dealerManager.client, tree.dealer.id, { email, capabilities: ['domains'] });
    const it = new ItPerson(portal, email);
    expect((await it.enterCode(link.token, '12345678')).status).toBe(400); // no code asked for yet
    expect((await it.askCode(link.token)).status).toBe(202);
    const code = await codeFor(portal, email);
    const wrong = code === '00000000' ? '00000001' : '00000000';
    for (let i = 0; i < 5; i++) {
      const res = await it.enterCode(link.token, wrong);
      expect(res.status).toBe(400);
      expect(res.body.i18NTranslationKey).toBe('invalid_code');
    }
    // the right code after five wrong answers: ended
    expect((await it.enterCode(link.token, code)).status).toBe(400);
    expect((await it.enterCode(link.token, 'abc')).status).toBe(400);

    const before = portal.smtp.to(email).length;
    expect((await it.askCode(link.token)).status).toBe(202);
    const fresh = await codeFor(portal, email, before);
    const opened = await it.enterCode(link.token, fresh);
    expect(opened.status, opened.text).toBe(204);
    const cookie = opened.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^pp_setup=[\w-]{43};/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\/api/i);
    expect((await it.enterCode(link.token, fresh)).status).toBe(400); // spent
    expect((await it.client.get(`/api/setup/${link.token}`)).body).toMatchObject({ state: 'opened', signed_in: true });
    const listed = await dealerManager.client.get(linksUrl(tree.dealer.id));
    expect(listed.body.find((l: { id: string }) => l.id === link.id).state).toBe('opened');
  });

  it('limits the codes asked for per link (429 with Retry-After)', async () => {
    const email = itAddress();
    const link = await makeLink(dealerManager.client, tree.dealer.id, { email, capabilities: ['domains'] });
    const it = new ItPerson(portal, email);
    for (let i = 0; i < 5; i++) expect((await it.askCode(link.token)).status).toBe(202);
    const limited = await it.askCode(link.token);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('acting through a setup session', () => {
  it('adds and verifies a domain and creates a connection in the subtree, audited as the link; the maker is told of each step', async () => {
    const email = itAddress();
    const link = await makeLink(dealerManager.client, tree.dealer.id, { email, capabilities: ['domains', 'sso', 'scim'] });
    const it = new ItPerson(portal, email);
    await it.open(link.token);

    const claimed = await it.client.post(`/api/organizations/${tree.region.id}/domains`, { domain: 'setup-region.example' });
    expect(claimed.status, claimed.text).toBe(201);
    dns.set('_partner-portal.setup-region.example', claimed.body.verification.value);
    const verified = await it.client.post(`/api/organizations/${tree.region.id}/domains/setup-region.example/verify`);
    expect(verified.status, verified.text).toBe(200);
    expect((await it.client.get(`/api/organizations/${tree.region.id}/domains`)).status).toBe(200);

    const created = await it.client.post(`/api/organizations/${tree.region.id}/sso-connections`, {
      name: 'Region Entra',
      issuer: idp.issuer,
      client_id: 'setup-portal',
      client_secret: SECRET,
      domains: ['setup-region.example'],
      just_in_time: false,
      active: false,
    });
    expect(created.status, created.text).toBe(201);
    const switched = await it.client.patch(`/api/organizations/${tree.region.id}/sso-connections/${created.body.id}`, { active: true });
    expect(switched.status, switched.text).toBe(204);
    const token = await it.client.post(`/api/organizations/${tree.region.id}/scim-tokens`, { name: 'Region Entra directory' });
    expect(token.status, token.text).toBe(201);

    const audit = await portal.services.db.query<{
      action: string;
      actor_kind: string;
      actor_id: string;
      actor_email: string;
      actor_user_id: string | null;
    }>(`SELECT action, actor_kind, actor_id, actor_email, actor_user_id FROM audit_log WHERE actor_id = $1 ORDER BY id`, [link.id]);
    expect(audit.rows.map((r) => r.action)).toEqual([
      'setup_link.open',
      'domain.claim',
      'domain.verify',
      'sso_connection.create',
      'sso_connection.update',
      'scim_token.create',
    ]);
    for (const row of audit.rows) expect(row).toMatchObject({ actor_kind: 'setup_link', actor_email: email, actor_user_id: null });

    // the maker is told, in their language (nl), of each completed step
    await portal.mailSettled();
    const told = portal.smtp.to(dealerManager.email).map((m) => m.subject);
    expect(told).toEqual(
      expect.arrayContaining([
        expect.stringContaining('het domein setup-region.example is geverifieerd'),
        expect.stringContaining('de single sign-on-koppeling Region Entra is aangemaakt'),
        expect.stringContaining('de single sign-on-koppeling Region Entra is ingeschakeld'),
        expect.stringContaining('het SCIM-token Region Entra directory is aangemaakt'),
      ]),
    );
  });

  it('runs the test sign-in of a connection it made; a link without sso may not', async () => {
    await verifyDomain(portal, tree.farm.id, 'setup-farm.example');
    await createPerson(portal, tree.farm, 'worker@setup-farm.example');
    idp.addAccount({ sub: 'sub-setup-farm-worker', email: 'worker@setup-farm.example', email_verified: true });
    const email = itAddress();
    const link = await makeLink(dealerManager.client, tree.farm.id, { email, capabilities: ['sso'] });
    const it = new ItPerson(portal, email);
    await it.open(link.token);
    const created = await it.client.post(`/api/organizations/${tree.farm.id}/sso-connections`, {
      name: 'Farm IdP',
      issuer: idp.issuer,
      client_id: 'setup-portal',
      client_secret: SECRET,
      domains: ['setup-farm.example'],
      just_in_time: false,
      active: false,
    });
    expect(created.status, created.text).toBe(201);
    const returnPath = `/setup/${link.token}`;
    const testUrl = `${portal.url}/api/identity/challenge-external-login?connection=${created.body.id}&test=1&returnPath=${encodeURIComponent(returnPath)}`;
    const browser = new Browser(portal.url, idp);
    browser.portal.cookies.set('pp_setup', it.client.cookies.get('pp_setup')!);
    const back = await browser.signInAt(testUrl, 'sub-setup-farm-worker');
    expect(back.pathname).toBe(returnPath);
    expect(back.searchParams.get('sso_test')).toBe('ok');
    expect(back.searchParams.get('sso_test_email')).toBe('worker@setup-farm.example');

    // a link of scim only holds no right to test
    const scimOnly = await makeLink(dealerManager.client, tree.farm.id, { email, capabilities: ['scim'] });
    const other = new ItPerson(portal, email);
    await other.open(scimOnly.token);
    const refused = new Browser(portal.url, idp);
    refused.portal.cookies.set('pp_setup', other.client.cookies.get('pp_setup')!);
    expect((await refused.get(testUrl)).status).toBe(403);
  });

  it('is refused outside the subtree, beyond its capabilities and on every other route (403); revoking ends it at once', async () => {
    const email = itAddress();
    const link = await makeLink(dealerManager.client, tree.region.id, { email, capabilities: ['domains'] });
    const it = new ItPerson(portal, email);
    await it.open(link.token);
    expect((await it.client.get(`/api/organizations/${tree.region.id}/domains`)).status).toBe(200);
    // outside the link's organization's subtree
    const above = await it.client.post(`/api/organizations/${tree.dealer.id}/domains`, { domain: 'setup-above.example' });
    expect(above.status).toBe(403);
    expect((await it.client.get(`/api/organizations/${tree.sibling.id}/domains`)).status).toBe(403);
    // beyond its capabilities, and every other route
    for (const [method, path, body] of [
      ['GET', `/api/organizations/${tree.region.id}/sso-connections`],
      ['GET', `/api/organizations/${tree.region.id}/scim-tokens`],
      ['GET', `/api/organizations/${tree.region.id}/setup-links`],
      ['POST', `/api/organizations/${tree.region.id}/setup-links`, { email, capabilities: ['domains'], expires_in_days: 1 }],
      ['GET', `/api/organizations/${tree.region.id}/webhooks`],
      ['GET', `/api/organizations/${tree.region.id}/service-accounts`],
      ['PUT', `/api/organizations/${tree.region.id}/connection-policy`, { sub_organizations_may_connect: false }],
      ['GET', `/api/members?organizationId=${tree.region.id}`],
      ['POST', '/api/invitations', { email_address: 'x@setup-it.example' }],
      ['GET', '/api/identity/user-info'],
      ['GET', '/api/identity/profile'],
      ['GET', '/api/audit'],
    ] as const) {
      const res = await it.client.request(method, path, body === undefined ? {} : { body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.i18NTranslationKey, `${method} ${path}`).toBe('setup_link_not_allowed');
    }

    expect((await dealerManager.client.delete(`${linksUrl(tree.region.id)}/${link.id}`)).status).toBe(204);
    const after = await it.client.get(`/api/organizations/${tree.region.id}/domains`);
    expect([401, 403]).toContain(after.status);
    expect((await it.client.get(`/api/setup/${link.token}`)).status).toBe(404);
    const listed = await dealerManager.client.get(linksUrl(tree.region.id));
    expect(listed.body.find((l: { id: string }) => l.id === link.id).state).toBe('revoked');
    expect((await dealerManager.client.delete(`${linksUrl(tree.region.id)}/${link.id}`)).status).toBe(204);
    expect((await dealerManager.client.delete(`${linksUrl(tree.region.id)}/${tree.region.id}`)).status).toBe(404);
  });

  it('ends when the link expires, and acts with its maker’s rights as they are now', async () => {
    const email = itAddress();
    const link = await makeLink(dealerManager.client, tree.dealer.id, { email, capabilities: ['domains'] });
    const it = new ItPerson(portal, email);
    await it.open(link.token);
    expect((await it.client.get(`/api/organizations/${tree.dealer.id}/domains`)).status).toBe(200);
    await portal.services.db.query(`UPDATE setup_links SET expires_at = now() - interval '1 second' WHERE id = $1`, [link.id]);
    expect([401, 403]).toContain((await it.client.get(`/api/organizations/${tree.dealer.id}/domains`)).status);

    // a maker who lost organizationManager: the link acts with no right
    const maker = await createPerson(portal, tree.dealer, `maker.${Date.now()}@setup-dealer.example`, { manager: 'both' });
    const second = await makeLink(maker.client, tree.dealer.id, { email, capabilities: ['domains'] });
    const again = new ItPerson(portal, email);
    await again.open(second.token);
    expect((await again.client.get(`/api/organizations/${tree.dealer.id}/domains`)).status).toBe(200);
    await portal.services.db.query(
      `UPDATE memberships SET rights = jsonb_set(rights, '{partner_portal,user_sub_organization_manager}', 'false') WHERE user_id = $1`,
      [maker.userId],
    );
    expect((await again.client.get(`/api/organizations/${tree.dealer.id}/domains`)).status).toBe(403);
  });
});
