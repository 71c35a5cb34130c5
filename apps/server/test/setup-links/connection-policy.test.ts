import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDealerIdp, type DealerIdp } from '../support/dealer-idp.js';
import { startPortal, type TestPortal } from '../support/portal.js';
import { createAccount, tokenOf, BearerClient } from '../service-accounts/support.js';
import { buildDealerTree, createPerson, verifyDomain, type DealerTree, type Person } from '../sso/support.js';

/**
 * The connection policy (the operating contract, "Setup links for a dealer's IT person"): a
 * manager of an organization keeps the organizations below it from connecting their own identity
 * providers and directories — SSO connections, SCIM tokens and setup links are refused there with
 * 409 connections_not_allowed, while the organization itself still may; GET says what applies and
 * where it is set; people only; organizationManagers of the organization or above.
 */
let portal: TestPortal;
let idp: DealerIdp;
let tree: DealerTree;
let rootManager: Person;
let dealerManager: Person;
let dealerUserManager: Person;
let regionManager: Person;

beforeAll(async () => {
  idp = await startDealerIdp();
  portal = await startPortal();
  idp.addClient({ client_id: 'policy-client', client_secret: 'policy-secret-0123456789abcdef', redirect_uris: [`${portal.url}/cb`] });
  tree = await buildDealerTree(portal);
  await verifyDomain(portal, tree.dealer.id, 'policy.example');
  rootManager = await createPerson(portal, tree.root, 'chief@policy-root.example', { manager: 'both' });
  dealerManager = await createPerson(portal, tree.dealer, 'chief@policy.example', { manager: 'both' });
  dealerUserManager = await createPerson(portal, tree.dealer, 'users@policy.example', { manager: 'user' });
  regionManager = await createPerson(portal, tree.region, 'region@policy.example', { manager: 'both' });
});
afterAll(async () => {
  await portal?.close();
  await idp?.close();
});

const policyUrl = (organizationId: string) => `/api/organizations/${organizationId}/connection-policy`;
const connection = (name: string) => ({
  name,
  issuer: idp.issuer,
  client_id: 'policy-client',
  client_secret: 'policy-secret-0123456789abcdef',
  domains: ['policy.example'],
  just_in_time: false,
  active: false,
});

describe('GET and PUT /api/organizations/{id}/connection-policy', () => {
  it('allows by default; false on the dealer refuses its branches (409) but not the dealer itself; GET tells where it is set; audited', async () => {
    const initial = await regionManager.client.get(policyUrl(tree.region.id));
    expect(initial.status, initial.text).toBe(200);
    expect(initial.body).toMatchObject({ sub_organizations_may_connect: true, may_connect: true, set_by: null });

    const set = await dealerManager.client.put(policyUrl(tree.dealer.id), { sub_organizations_may_connect: false });
    expect(set.status, set.text).toBe(204);

    expect((await dealerManager.client.get(policyUrl(tree.dealer.id))).body).toMatchObject({
      sub_organizations_may_connect: false,
      may_connect: true,
      set_by: tree.dealer.id,
    });
    expect((await regionManager.client.get(policyUrl(tree.region.id))).body).toMatchObject({
      sub_organizations_may_connect: false,
      may_connect: false,
      set_by: tree.dealer.id,
    });
    expect((await rootManager.client.get(policyUrl(tree.root.id))).body).toMatchObject({
      sub_organizations_may_connect: true,
      may_connect: true,
      set_by: null,
    });

    // the branch (region) may not connect: a connection, a SCIM token, a setup link — even by a manager above
    const sso = await dealerManager.client.post(`/api/organizations/${tree.region.id}/sso-connections`, connection('Region IdP'));
    expect(sso.status, sso.text).toBe(409);
    expect(sso.body.i18NTranslationKey).toBe('connections_not_allowed');
    const scim = await dealerManager.client.post(`/api/organizations/${tree.farm.id}/scim-tokens`, { name: 'Farm directory' });
    expect(scim.status, scim.text).toBe(409);
    expect(scim.body.i18NTranslationKey).toBe('connections_not_allowed');
    const link = await dealerManager.client.post(`/api/organizations/${tree.region.id}/setup-links`, {
      email: 'it@policy.example',
      capabilities: ['domains', 'sso'],
      expires_in_days: 3,
    });
    expect(link.status, link.text).toBe(409);
    expect(link.body.i18NTranslationKey).toBe('connections_not_allowed');

    // the dealer itself still may
    const own = await dealerManager.client.post(`/api/organizations/${tree.dealer.id}/sso-connections`, connection('Dealer IdP'));
    expect(own.status, own.text).toBe(201);
    expect((await dealerManager.client.post(`/api/organizations/${tree.dealer.id}/scim-tokens`, { name: 'Dealer dir' })).status).toBe(201);

    // the region's own setting cannot lift the dealer's
    expect((await regionManager.client.put(policyUrl(tree.region.id), { sub_organizations_may_connect: true })).status).toBe(204);
    expect((await regionManager.client.get(policyUrl(tree.farm.id))).body).toMatchObject({ may_connect: false, set_by: tree.dealer.id });

    const audit = await portal.services.db.query<{ action: string; actor_user_id: string; after: unknown }>(
      `SELECT action, actor_user_id, after FROM audit_log WHERE organization_id = $1 AND action = 'organization.connection_policy.set'`,
      [tree.dealer.id],
    );
    expect(audit.rows).toEqual([
      {
        action: 'organization.connection_policy.set',
        actor_user_id: dealerManager.userId,
        after: { sub_organizations_may_connect: false },
      },
    ]);

    // allowed again: the region connects
    expect((await dealerManager.client.put(policyUrl(tree.dealer.id), { sub_organizations_may_connect: true })).status).toBe(204);
    expect((await regionManager.client.get(policyUrl(tree.region.id))).body).toMatchObject({ may_connect: true });
    expect((await dealerManager.client.post(`/api/organizations/${tree.farm.id}/scim-tokens`, { name: 'Farm directory' })).status).toBe(
      201,
    );
  });

  it('is set by organizationManagers of the organization or above (403 otherwise), by people only (403 service_account_not_allowed); bad input 400', async () => {
    const byUserManager = await dealerUserManager.client.put(policyUrl(tree.dealer.id), { sub_organizations_may_connect: false });
    expect(byUserManager.status).toBe(403);
    expect(byUserManager.body.i18NTranslationKey).toBe('forbidden');
    expect((await regionManager.client.put(policyUrl(tree.dealer.id), { sub_organizations_may_connect: false })).status).toBe(403);
    expect((await portal.client().get(policyUrl(tree.dealer.id))).status).toBe(401);
    expect((await dealerManager.client.put(policyUrl(tree.dealer.id), { sub_organizations_may_connect: 'no' })).status).toBe(400);
    expect((await dealerManager.client.put(policyUrl('not-an-id'), { sub_organizations_may_connect: false })).status).toBe(400);

    const account = await createAccount(dealerManager.client, tree.dealer.id, {
      name: 'ERP',
      organization_manager: true,
      user_manager: true,
    });
    const machine = new BearerClient(portal.url, await tokenOf(portal.url, account));
    for (const res of [
      await machine.put(policyUrl(tree.dealer.id), { sub_organizations_may_connect: false }),
      await machine.get(policyUrl(tree.dealer.id)),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.i18NTranslationKey).toBe('service_account_not_allowed');
    }
    expect((await dealerManager.client.get(policyUrl(tree.dealer.id))).body).toMatchObject({ sub_organizations_may_connect: true });
  });
});
