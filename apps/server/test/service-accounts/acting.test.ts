import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { SERVICE_ACCOUNT_SCOPE } from '@partner-portal/contracts';
import * as oidcClient from 'openid-client';
import { startPortalWith, type TestPortal } from '../support/portal.js';
import { buildFixture, createMember, type Fixture } from '../organizations/fixtures.js';
import { BearerClient, createAccount, discoverAs, keyOf, tokenOf, type CreatedAccount } from './support.js';

/**
 * A service account acting on /api with its bearer token (docs/integrations.md, "Service
 * accounts"): the same authorization model as a person's, on its organization's subtree and with
 * its own rights only, audited as itself; a person's calls refused; no X-CSRF with a bearer token
 * while a cookie request still needs it; a bad token, a token beside the session cookie, or a
 * deleted account's token refused at once.
 */
let portal: TestPortal;
let f: Fixture;
/** dealer-a's accounts: both manager rights, userManager only, organizationManager only */
let both: BearerClient;
let usersOnly: BearerClient;
let treeOnly: BearerClient;
let bothAccount: CreatedAccount;

async function bearerFor(account: CreatedAccount): Promise<BearerClient> {
  return new BearerClient(portal.url, await tokenOf(portal.url, account));
}

beforeAll(async () => {
  ({ portal, built: f } = await startPortalWith(buildFixture));
  bothAccount = await createAccount(f.fullA.client, f.tree.a.id, { name: 'ERP sync', user_manager: true, organization_manager: true });
  both = await bearerFor(bothAccount);
  usersOnly = await bearerFor(await createAccount(f.userMgrA.client, f.tree.a.id, { name: 'HR feed', user_manager: true }));
  treeOnly = await bearerFor(await createAccount(f.orgMgrA.client, f.tree.a.id, { name: 'Branch sync', organization_manager: true }));
});
afterAll(() => portal?.close());

const db = () => portal.services.db;

describe('a service account on /api', () => {
  it('reads and changes its own organization and its sub-organizations, and nothing of another tree (403)', async () => {
    for (const org of [f.tree.a, f.tree.north, f.tree.farm]) {
      const res = await both.get(`/api/organizations/${org.id}`);
      expect(res.status, org.name).toBe(200);
      expect(res.body.id).toBe(org.id);
    }
    for (const org of [f.tree.b, f.tree.root]) expect((await both.get(`/api/organizations/${org.id}`)).status, org.name).toBe(403);
    const tree = await both.get('/api/organizations/tree');
    expect(tree.status).toBe(200);
    expect(tree.body.key).toBe(f.tree.a.id);

    expect((await both.patch(`/api/organizations/${f.tree.south.id}`, { name: 'South Renamed' })).status).toBe(204);
    const created = await both.post('/api/organizations', { parent_organization_id: f.tree.north.id, name: 'Made By Machine' });
    expect(created.status, created.text).toBe(201);
    expect((await both.post('/api/organizations', { parent_organization_id: f.tree.b.id, name: 'Elsewhere' })).status).toBe(403);
    expect((await both.patch(`/api/organizations/${f.tree.b.id}`, { name: 'Taken' })).status).toBe(403);
    expect((await both.get(`/api/members/search?organizationId=${f.tree.b.id}&q=e`)).status).toBe(403);
    const search = await both.get(`/api/members/search?organizationId=${f.tree.a.id}&q=farmer`);
    expect(search.status).toBe(200);
    // its own organization is not its to edit, as for a person
    expect(keyOf(await both.patch(`/api/organizations/${f.tree.a.id}`, { name: 'Mine' }))).toBe('cannot_edit_own_organization');
  });

  it('acts with its own rights and nobody else’s', async () => {
    // userManager only: no organization changes
    expect((await usersOnly.post('/api/organizations', { parent_organization_id: f.tree.north.id, name: 'Nope' })).status).toBe(403);
    expect((await usersOnly.patch(`/api/organizations/${f.tree.north.id}`, { name: 'Nope' })).status).toBe(403);
    const invited = await usersOnly.post(`/api/organizations/${f.tree.north.id}/invitations`, {
      email_address: 'new.dealer@north.example.com',
      language_code: 'de',
    });
    expect(invited.status, invited.text).toBe(201);
    // organizationManager only: no people changes
    expect(
      (
        await treeOnly.post(`/api/organizations/${f.tree.north.id}/invitations`, {
          email_address: 'x@north.example.com',
          language_code: 'en',
        })
      ).status,
    ).toBe(403);
    expect((await treeOnly.post('/api/organizations', { parent_organization_id: f.tree.north.id, name: 'Branch Office' })).status).toBe(
      201,
    );

    // delegation: it hands on the manager rights it holds, nothing else, and leaves alone those who hold more
    const member = await createMember(portal, f.tree.north, 'delegated', () => undefined);
    const granted = await usersOnly.put(`/api/members/rights/${member.memberId}`, {
      rights: { partner_portal: { user_user_manager: true } },
    });
    expect(granted.status, granted.text).toBe(204);
    const app = await usersOnly.put(`/api/members/rights/${member.memberId}`, { rights: { loyalty: { user_access: true } } });
    expect(app.status).toBe(403);
    expect(keyOf(app)).toBe('cannot_grant_rights_not_held');
    const org = await usersOnly.put(`/api/members/rights/${member.memberId}`, {
      rights: { partner_portal: { user_user_manager: true, user_sub_organization_manager: true } },
    });
    expect(keyOf(org)).toBe('cannot_grant_rights_not_held');
    const removeMore = await usersOnly.delete(`/api/organizations/${f.tree.north.id}/members/${f.mgrNorth.memberId}`);
    expect(removeMore.status).toBe(403);
    expect(keyOf(removeMore)).toBe('cannot_manage_member_with_more_rights');
  });

  it('is audited as itself: the entry names the account, and the trail, its filter and its export show it', async () => {
    const email = 'audited.invitee@north.example.com';
    const invited = await both.post(`/api/organizations/${f.tree.north.id}/invitations`, { email_address: email, language_code: 'en' });
    expect(invited.status, invited.text).toBe(201);
    const { rows } = await db().query(
      `SELECT actor_user_id, actor_email, actor_service_account_id, actor_name, request_id FROM audit_log
       WHERE action = 'invitation.create' AND after->>'email_address' = $1`,
      [email],
    );
    expect(rows).toEqual([
      {
        actor_user_id: null,
        actor_email: null,
        actor_service_account_id: bothAccount.id,
        actor_name: 'ERP sync',
        request_id: invited.headers.get('x-request-id'),
      },
    ]);
    const mail = await portal.smtp.waitFor(email);
    expect(mail.text).toContain('ERP sync');

    const trail = await f.userMgrA.client.get(`/api/audit?organizationId=${f.tree.north.id}&actor=erp`);
    expect(trail.status).toBe(200);
    const entry = trail.body.entries.find((e: { action: string }) => e.action === 'invitation.create');
    expect(entry).toMatchObject({ actor_name: 'ERP sync', actor_service_account_id: bothAccount.id, actor_user_id: null });
    const csv = await f.userMgrA.client.get(`/api/audit/export?organizationId=${f.tree.north.id}&action=invitation.create`);
    const exported = parse<Record<string, string>>(csv.text, { columns: true, bom: true });
    expect(exported.find((r) => r.actor_service_account_id === bothAccount.id)).toMatchObject({ actor_name: 'ERP sync', actor_email: '' });
  });

  it('answers 403 to a service account on a person’s calls: profile, password, second factors, sessions, developer, identity', async () => {
    const personal: [string, string, unknown?][] = [
      ['GET', '/api/identity/user-info'],
      ['PUT', '/api/identity/update-profile', { first_name: 'A', last_name: 'B', language_code: 'en' }],
      ['POST', '/api/identity/change-password', { current_password: 'x', new_password: 'Y-passw0rd!x', confirm_password: 'Y-passw0rd!x' }],
      ['GET', '/api/identity/sessions'],
      ['POST', '/api/identity/sessions/end-others'],
      ['GET', '/api/identity/context'],
      ['POST', '/api/identity/email-login', { email: 'someone@example.com' }],
      ['POST', '/api/identity/login', { email: 'someone@example.com', password: 'x' }],
      ['POST', '/api/identity/logout', {}],
      ['GET', '/api/factors'],
      ['POST', '/api/factors/totp'],
      ['GET', '/api/developer/organization-export'],
      ['GET', '/api/portal'],
      // service accounts are made and deleted by people only
      ['GET', `/api/organizations/${f.tree.a.id}/service-accounts`],
      ['POST', `/api/organizations/${f.tree.a.id}/service-accounts`, { name: 'Offspring', user_manager: true }],
      ['DELETE', `/api/organizations/${f.tree.a.id}/service-accounts/${bothAccount.id}`],
    ];
    for (const [method, path, body] of personal) {
      const res = await both.request(method, path, body === undefined ? {} : { body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(keyOf(res), `${method} ${path}`).toBe('service_account_not_allowed');
    }
    expect((await db().query("SELECT 1 FROM service_accounts WHERE name = 'Offspring'")).rowCount).toBe(0);
    // an unknown /api path stays unknown
    expect((await both.get('/api/no-such-call')).status).toBe(404);
  });

  it('needs no X-CSRF with a bearer token; a cookie request still does, and a bearer token beside the session cookie is refused (401)', async () => {
    expect((await both.get(`/api/organizations/${f.tree.a.id}`)).status).toBe(200);
    // other cookies carry no identity (a load balancer's): still the service account
    expect((await both.get(`/api/organizations/${f.tree.a.id}`, { headers: { cookie: 'lb=node-2' } })).status).toBe(200);

    const person = f.userMgrA.client;
    const noHeader = await person.get(`/api/organizations/${f.tree.a.id}`, { csrf: false });
    expect(noHeader.status).toBe(403);
    expect(keyOf(noHeader)).toBe('csrf_header_missing');
    expect((await person.get(`/api/organizations/${f.tree.a.id}`)).status).toBe(200);

    const authorization = `Bearer ${both.token}`;
    const mixed = await person.get(`/api/organizations/${f.tree.a.id}`, { headers: { authorization } });
    expect(mixed.status).toBe(401);
    expect(keyOf(mixed)).toBe('bearer_token_with_cookie');
    const mixedWithoutHeader = await person.get(`/api/organizations/${f.tree.a.id}`, { headers: { authorization }, csrf: false });
    expect(mixedWithoutHeader.status).toBe(403);
    expect(keyOf(mixedWithoutHeader)).toBe('csrf_header_missing');
    // the person's session is untouched
    expect((await person.get('/api/identity/user-info')).status).toBe(200);
  });

  it('refuses a bad, expired or scope-less token with 401 and the RFC 6750 challenge', async () => {
    const unknown = await new BearerClient(portal.url, 'not-a-token-of-this-provider').get(`/api/organizations/${f.tree.a.id}`);
    expect(unknown.status).toBe(401);
    expect(keyOf(unknown)).toBe('invalid_bearer_token');
    expect(unknown.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);

    const account = await createAccount(f.userMgrA.client, f.tree.a.id, { name: 'Short-lived', user_manager: true });
    const config = await discoverAs(portal.url, account);
    // a grant without scope gets partner_portal_api (management.test.ts); a token without it (its
    // stored scope taken away here) is refused
    const scopeless = (await oidcClient.clientCredentialsGrant(config, {})).access_token;
    expect((await new BearerClient(portal.url, scopeless).get(`/api/organizations/${f.tree.a.id}`)).status).toBe(200);
    await db().query(`UPDATE oidc_payloads SET payload = payload - 'scope' WHERE model = 'ClientCredentials' AND id = $1`, [scopeless]);
    const refused = await new BearerClient(portal.url, scopeless).get(`/api/organizations/${f.tree.a.id}`);
    expect(refused.status).toBe(401);
    expect(keyOf(refused)).toBe('invalid_bearer_token');

    const token = (await oidcClient.clientCredentialsGrant(config, { scope: SERVICE_ACCOUNT_SCOPE })).access_token;
    const client = new BearerClient(portal.url, token);
    expect((await client.get(`/api/organizations/${f.tree.a.id}`)).status).toBe(200);
    await db().query(`UPDATE oidc_payloads SET expires_at = now() - interval '1 second' WHERE model = 'ClientCredentials' AND id = $1`, [
      token,
    ]);
    const expired = await client.get(`/api/organizations/${f.tree.a.id}`);
    expect(expired.status).toBe(401);
    expect(keyOf(expired)).toBe('invalid_bearer_token');

    // revoked by the application itself (RFC 7009)
    const revocable = (await oidcClient.clientCredentialsGrant(config, { scope: SERVICE_ACCOUNT_SCOPE })).access_token;
    await oidcClient.tokenRevocation(config, revocable);
    expect((await new BearerClient(portal.url, revocable).get(`/api/organizations/${f.tree.a.id}`)).status).toBe(401);
  });

  it('ends a deleted account’s tokens at once, and keeps when it was last used', async () => {
    const account = await createAccount(f.userMgrA.client, f.tree.a.id, { name: 'Retired', user_manager: true });
    const client = await bearerFor(account);
    const tokens = [client, await bearerFor(account)];
    for (const c of tokens) expect((await c.get(`/api/organizations/${f.tree.a.id}`)).status).toBe(200);
    const listed = await f.userMgrA.client.get(`/api/organizations/${f.tree.a.id}/service-accounts`);
    expect(listed.body.find((a: { id: string }) => a.id === account.id).last_used_at).toEqual(expect.any(String));

    expect((await f.userMgrA.client.delete(`/api/organizations/${f.tree.a.id}/service-accounts/${account.id}`)).status).toBe(204);
    for (const c of tokens) {
      const res = await c.get(`/api/organizations/${f.tree.a.id}`);
      expect(res.status).toBe(401);
      expect(keyOf(res)).toBe('invalid_bearer_token');
    }
    const left = await db().query(`SELECT 1 FROM oidc_payloads WHERE model = 'ClientCredentials' AND payload->>'clientId' = $1`, [
      account.client_id,
    ]);
    expect(left.rowCount).toBe(0);
  });

  it('ends the tokens of the accounts of a deleted organization at once; the deletion’s audit entry names what went with it', async () => {
    const made = await f.fullA.client.post('/api/organizations', { parent_organization_id: f.tree.a.id, name: 'Closing branch' });
    expect(made.status).toBe(201);
    const branch = made.body.id as string;
    const account = await createAccount(f.fullA.client, branch, { name: 'Branch feed', user_manager: true });
    const client = await bearerFor(account);
    expect((await client.get(`/api/organizations/${branch}`)).status).toBe(200);
    const scim = await f.fullA.client.post(`/api/organizations/${branch}/scim-tokens`, { name: 'Branch directory' });
    expect(scim.status).toBe(201);

    expect((await f.fullA.client.delete(`/api/organizations/${branch}`)).status).toBe(204);
    const res = await client.get(`/api/organizations/${f.tree.a.id}`);
    expect(res.status).toBe(401);
    expect(keyOf(res)).toBe('invalid_bearer_token');
    const left = await db().query(`SELECT 1 FROM oidc_payloads WHERE model = 'ClientCredentials' AND payload->>'clientId' = $1`, [
      account.client_id,
    ]);
    expect(left.rowCount).toBe(0);
    const audit = await db().query<{ before: Record<string, unknown> }>(
      "SELECT before FROM audit_log WHERE action = 'organization.delete' AND target_id = $1",
      [branch],
    );
    expect(audit.rows).toEqual([
      {
        before: expect.objectContaining({
          name: 'Closing branch',
          removed_with_it: {
            service_accounts: [{ id: account.id, name: 'Branch feed', client_id: account.client_id }],
            scim_tokens: [{ id: scim.body.id, name: 'Branch directory' }],
          },
        }),
      },
    ]);
  });
});
