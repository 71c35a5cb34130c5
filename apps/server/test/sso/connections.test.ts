import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unseal } from '../../src/sealed.js';
import { CLIENT_SECRET_PURPOSE } from '../../src/modules/sso/providers.js';
import { startDealerIdp, type DealerIdp } from '../support/dealer-idp.js';
import { freePort, NO_LOGIN_LIMITS, startPortal, type TestPortal } from '../support/portal.js';
import { Browser, buildDealerTree, createConnection, createPerson, verifyDomain, type DealerTree, type Person } from './support.js';

/**
 * The calls of single sign-on connections (the operating contract, "Single sign-on per
 * organization"): who may make them, the domains' rules, discovery, secrets, inheritance, the
 * configured EXTERNAL_IDP_* connection, the audit and the managers' e-mail, and what a deletion
 * does to the accounts linked to the connection.
 */
let portal: TestPortal;
let idp: DealerIdp;
let tree: DealerTree;
let dealerManager: Person;
let userManager: Person;
let regionManager: Person;
let siblingManager: Person;
let member: Person;

const SECRET = 'dealer-client-secret-0123456789abcdef';

beforeAll(async () => {
  idp = await startDealerIdp();
  portal = await startPortal({
    ...NO_LOGIN_LIMITS,
    EXTERNAL_IDP_ISSUER: idp.issuer,
    EXTERNAL_IDP_CLIENT_ID: 'provider-portal',
    EXTERNAL_IDP_NAME: 'Provider AD',
    EXTERNAL_IDP_EMAIL_DOMAINS: 'provider-staff.example',
  });
  idp.addClient({
    client_id: 'portal-noord',
    client_secret: SECRET,
    redirect_uris: [`${portal.url}/api/identity/login-external-callback`],
  });
  tree = await buildDealerTree(portal);
  await verifyDomain(portal, tree.dealer.id, 'noord.example');
  await verifyDomain(portal, tree.dealer.id, 'noord-two.example');
  await verifyDomain(portal, tree.region.id, 'region.example');
  await verifyDomain(portal, tree.root.id, 'provider-staff.example');
  await portal.services.db.query(
    `INSERT INTO organization_domains (organization_id, domain, verification_value) VALUES ($1, 'unverified.example', 'x')`,
    [tree.dealer.id],
  );
  dealerManager = await createPerson(portal, tree.dealer, 'chief@noord.example', { manager: 'both' });
  userManager = await createPerson(portal, tree.dealer, 'users@noord.example', { manager: 'user' });
  regionManager = await createPerson(portal, tree.region, 'region.chief@noord.example', { manager: 'both' });
  siblingManager = await createPerson(portal, tree.sibling, 'chief@zuid.example', { manager: 'both' });
  member = await createPerson(portal, tree.dealer, 'plain@noord.example');
});
afterAll(async () => {
  await portal?.close();
  await idp?.close();
});

const connectionBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Noord Entra ID',
  issuer: idp.issuer,
  client_id: 'portal-noord',
  client_secret: SECRET,
  domains: ['noord.example'],
  just_in_time: false,
  ...overrides,
});
const list = (client: Person['client'], organizationId: string) => client.get(`/api/organizations/${organizationId}/sso-connections`);

describe('single sign-on connections', () => {
  let connectionId: string;

  it('an organizationManager of the organization creates one: 201 {id}, audited, its managers told by e-mail', async () => {
    const res = await createConnection(dealerManager.client, tree.dealer.id, connectionBody());
    expect(Object.keys(res.body)).toEqual(['id']);
    connectionId = res.body.id;
    const { rows } = await portal.services.db.query<{ action: string; after: Record<string, unknown>; actor_email: string }>(
      `SELECT action, after, actor_email FROM audit_log WHERE target_id = $1`,
      [connectionId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: 'sso_connection.create', actor_email: dealerManager.email });
    expect(rows[0]!.after).toMatchObject({ name: 'Noord Entra ID', domains: ['noord.example'], has_client_secret: true });
    expect(JSON.stringify(rows[0]!.after)).not.toContain(SECRET);
    const mail = await portal.smtp.waitFor(dealerManager.email, (m) => m.subject.includes('single sign-on'));
    expect(mail.subject).toContain(tree.dealer.name);
    expect(mail.text).toContain('Noord Entra ID');
    expect(mail.text).toContain('@noord.example');
    expect(mail.html).toContain(`/manage-organization/${tree.dealer.id}#identity`);
  });

  it('keeps the client secret sealed and never answers it', async () => {
    const { rows } = await portal.services.db.query<{ client_secret_sealed: string }>(
      'SELECT client_secret_sealed FROM sso_connections WHERE id = $1',
      [connectionId],
    );
    const sealed = rows[0]!.client_secret_sealed;
    expect(sealed).not.toContain(SECRET);
    expect(sealed.split('.')).toHaveLength(5); // a compact JWE
    expect(await unseal(portal.services.secrets.keyEncryption, CLIENT_SECRET_PURPOSE, sealed)).toBe(SECRET);
    const res = await list(dealerManager.client, tree.dealer.id);
    expect(res.status).toBe(200);
    expect(res.text).not.toContain(SECRET);
    expect(res.text).not.toContain(sealed);
  });

  it('lists its own and the inherited connections; the configured one as the root organization’s, to the provider’s own people only', async () => {
    const own = await list(userManager.client, tree.dealer.id);
    expect(own.status).toBe(200);
    expect(own.body).toEqual([
      {
        id: connectionId,
        name: 'Noord Entra ID',
        issuer: idp.issuer,
        client_id: 'portal-noord',
        domains: ['noord.example'],
        just_in_time: false,
        active: true,
        organization_id: tree.dealer.id,
        has_client_secret: true,
        configured: false,
      },
    ]);
    // inherited by the child: organization_id tells
    const child = await list(regionManager.client, tree.region.id);
    expect(child.status).toBe(200);
    expect(child.body.map((c: { id: string; organization_id: string }) => [c.id, c.organization_id])).toEqual([
      [connectionId, tree.dealer.id],
    ]);
    // the sibling does not see it
    const sibling = await list(siblingManager.client, tree.sibling.id);
    expect(sibling.body.map((c: { id: string }) => c.id)).toEqual([]);
    // the provider's administrators see the provider's own connection, as the root organization's, wherever they look
    const admin = await list(await portal.sessionFor(portal.adminUserId), tree.dealer.id);
    expect(admin.body[0]).toEqual({
      id: 'external',
      name: 'Provider AD',
      issuer: idp.issuer,
      client_id: 'provider-portal',
      domains: ['provider-staff.example'],
      just_in_time: false,
      active: true,
      organization_id: tree.root.id,
      has_client_secret: false,
      configured: true,
    });
    expect(admin.body.map((c: { id: string }) => c.id)).toEqual(['external', connectionId]);
  });

  it('answers 401, 403 and 404 as every call of the tree', async () => {
    expect((await portal.client().get(`/api/organizations/${tree.dealer.id}/sso-connections`)).status).toBe(401);
    expect((await list(member.client, tree.dealer.id)).status).toBe(403);
    expect((await list(siblingManager.client, tree.dealer.id)).status).toBe(403);
    expect((await list(dealerManager.client, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    // a userManager reads, but only an organizationManager changes
    const byUserManager = await userManager.client.post(`/api/organizations/${tree.dealer.id}/sso-connections`, connectionBody());
    expect(byUserManager.status).toBe(403);
    const bySibling = await siblingManager.client.post(`/api/organizations/${tree.dealer.id}/sso-connections`, connectionBody());
    expect(bySibling.status).toBe(403);
    const byRegion = await regionManager.client.patch(`/api/organizations/${tree.dealer.id}/sso-connections/${connectionId}`, {
      name: 'x',
    });
    expect(byRegion.status).toBe(403);
  });

  it('refuses a domain not verified at or above the organization: 409 domain_not_verified naming it', async () => {
    for (const domain of ['unverified.example', 'nowhere.example', 'region.example']) {
      const res = await createConnection(
        dealerManager.client,
        tree.dealer.id,
        connectionBody({ domains: ['noord-two.example', domain] }),
        409,
      );
      expect(res.body).toMatchObject({ i18NTranslationKey: 'domain_not_verified', params: { domain } });
    }
  });

  it('one domain, one connection an organization: 409 sso_domain_in_use for another connection’s domain of it and for EXTERNAL_IDP_EMAIL_DOMAINS', async () => {
    const again = await createConnection(dealerManager.client, tree.dealer.id, connectionBody({ domains: ['noord.example'] }), 409);
    expect(again.body).toMatchObject({ i18NTranslationKey: 'sso_domain_in_use', params: { domain: 'noord.example' } });
    const configured = await createConnection(
      dealerManager.client,
      tree.dealer.id,
      connectionBody({ domains: ['provider-staff.example'] }),
      409,
    );
    expect(configured.body).toMatchObject({ i18NTranslationKey: 'sso_domain_in_use', params: { domain: 'provider-staff.example' } });
  });

  it('answers the operating contract’s errors first: an undiscoverable issuer is sso_discovery_failed even for a domain in use', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const res = await createConnection(
      dealerManager.client,
      tree.dealer.id,
      connectionBody({ issuer: closed, domains: ['noord.example'] }),
      409,
    );
    expect(res.body.i18NTranslationKey).toBe('sso_discovery_failed');
    // an unverified domain comes before both
    const unverified = await createConnection(
      dealerManager.client,
      tree.dealer.id,
      connectionBody({ issuer: closed, domains: ['noord.example', 'unverified.example'] }),
      409,
    );
    expect(unverified.body.i18NTranslationKey).toBe('domain_not_verified');
  });

  it('refuses an issuer that is no OpenID provider: 409 sso_discovery_failed, never a 5xx', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    for (const issuer of [closed, `${portal.url}/api/nothing-here`, `${idp.issuer}/other-tenant`]) {
      const res = await createConnection(
        dealerManager.client,
        tree.dealer.id,
        connectionBody({ issuer, domains: ['noord-two.example'] }),
        409,
      );
      expect(res.body.i18NTranslationKey).toBe('sso_discovery_failed');
    }
    const invalid = await dealerManager.client.post(
      `/api/organizations/${tree.dealer.id}/sso-connections`,
      connectionBody({ issuer: 'ftp://x' }),
    );
    expect(invalid.status).toBe(400);
    expect(await portal.services.db.query('SELECT 1 FROM sso_connections WHERE $1 = ANY(domains)', ['noord-two.example'])).toMatchObject({
      rowCount: 0,
    });
  });

  it('PATCH changes any field with the same checks; a null secret makes a public client', async () => {
    const url = `/api/organizations/${tree.dealer.id}/sso-connections/${connectionId}`;
    expect((await dealerManager.client.patch(url, { name: 'Noord login', just_in_time: true })).status).toBe(204);
    const unverified = await dealerManager.client.patch(url, { domains: ['noord.example', 'unverified.example'] });
    expect(unverified.status).toBe(409);
    expect(unverified.body.i18NTranslationKey).toBe('domain_not_verified');
    const gone = await dealerManager.client.patch(url, { issuer: `http://127.0.0.1:${await freePort()}` });
    expect(gone.status).toBe(409);
    expect(gone.body.i18NTranslationKey).toBe('sso_discovery_failed');
    expect((await dealerManager.client.patch(url, { client_secret: null, domains: ['noord.example', 'noord-two.example'] })).status).toBe(
      204,
    );
    const [connection] = (await list(dealerManager.client, tree.dealer.id)).body;
    expect(connection).toMatchObject({
      name: 'Noord login',
      just_in_time: true,
      domains: ['noord.example', 'noord-two.example'],
      has_client_secret: false,
      issuer: idp.issuer,
    });
    const { rows } = await portal.services.db.query<{ action: string }>('SELECT action FROM audit_log WHERE target_id = $1 ORDER BY id', [
      connectionId,
    ]);
    expect(rows.map((r) => r.action)).toEqual(['sso_connection.create', 'sso_connection.update', 'sso_connection.update']);
  });

  it('an ancestor’s connection addressed through a child: 409 sso_connection_inherited; the configured one: 409; unknown: 404', async () => {
    const inherited = `/api/organizations/${tree.region.id}/sso-connections/${connectionId}`;
    expect((await regionManager.client.patch(inherited, { name: 'mine' })).body.i18NTranslationKey).toBe('sso_connection_inherited');
    expect((await regionManager.client.delete(inherited)).status).toBe(409);
    const configured = `/api/organizations/${tree.dealer.id}/sso-connections/external`;
    const patched = await dealerManager.client.patch(configured, { name: 'mine' });
    expect(patched.status).toBe(409);
    expect(patched.body.i18NTranslationKey).toBe('sso_connection_configured');
    expect((await dealerManager.client.delete(configured)).body.i18NTranslationKey).toBe('sso_connection_configured');
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-connection']) {
      expect((await dealerManager.client.delete(`/api/organizations/${tree.dealer.id}/sso-connections/${id}`)).status).toBe(404);
    }
    // a descendant's connection is not the dealer's: 404 through the dealer
    const regional = await createConnection(regionManager.client, tree.region.id, connectionBody({ domains: ['region.example'] }));
    expect((await dealerManager.client.delete(`/api/organizations/${tree.dealer.id}/sso-connections/${regional.body.id}`)).status).toBe(
      404,
    );
    expect((await dealerManager.client.delete(`/api/organizations/${tree.region.id}/sso-connections/${regional.body.id}`)).status).toBe(
      204,
    );
  });

  it('DELETE unlinks the connection’s accounts and ends their sessions; “forgot password” then gives them a password', async () => {
    const browser = new Browser(portal.url, idp);
    idp.addAccount({
      sub: 'noord-farmer',
      email: 'farmer@noord.example',
      email_verified: true,
      given_name: 'Fenna',
      family_name: 'Farmer',
    });
    // the provider knows the portal as a confidential client: the secret again
    const url = `/api/organizations/${tree.dealer.id}/sso-connections/${connectionId}`;
    expect((await dealerManager.client.patch(url, { client_secret: SECRET })).status).toBe(204);
    // just in time (switched on above): the first sign-in makes the member
    const landing = await browser.signIn('farmer@noord.example', 'noord-farmer');
    expect(landing.searchParams.get('loginError')).toBeNull();
    const me = await browser.portal.get('/api/identity/user-info');
    expect(me.body).toMatchObject({ email: 'farmer@noord.example', externalIdentityProvider: connectionId });

    const res = await dealerManager.client.delete(`/api/organizations/${tree.dealer.id}/sso-connections/${connectionId}`);
    expect(res.status).toBe(204);
    expect((await browser.portal.get('/api/identity/user-info')).status).toBe(401);
    const { rows } = await portal.services.db.query<{ external_idp: string | null; external_subject: string | null }>(
      `SELECT external_idp, external_subject FROM users WHERE lower(email) = 'farmer@noord.example'`,
    );
    expect(rows[0]).toEqual({ external_idp: null, external_subject: null });
    const audit = await portal.services.db.query<{ after: { unlinked_accounts: number } }>(
      `SELECT after FROM audit_log WHERE target_id = $1 AND action = 'sso_connection.delete'`,
      [connectionId],
    );
    expect(audit.rows[0]!.after.unlinked_accounts).toBe(1);
    // no longer routed: the password step, and a reset link by e-mail
    const step = await portal.client().post('/api/identity/email-login', { email: 'farmer@noord.example' });
    expect(step.body.external_login).toBeNull();
    expect((await portal.client().post('/api/identity/forgot-password', { email_address: 'farmer@noord.example' })).status).toBe(204);
    const mail = await portal.smtp.waitFor('farmer@noord.example', (m) => m.links.some((l) => l.includes('/reset-password?')));
    expect(mail.links.some((l) => l.includes('/reset-password?'))).toBe(true);
  });
});
