import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type DnsServer } from '../support/dns-server.js';
import { startPortalWith, type TestPortal } from '../support/portal.js';
import { buildFixture, type Fixture } from '../organizations/fixtures.js';
import { routerRoutes } from '../security/support/routes.js';
import { startReceiver, startWorker, type Receiver } from '../webhooks/support.js';
import type { WebhookWorker } from '../../src/modules/webhooks/worker.js';
import { BearerClient, createAccount, keyOf, tokenOf, type CreatedAccount } from './support.js';

/**
 * What a service account may not do (the operating contract, "Service accounts", "Verified
 * domains", "Single sign-on per organization"; docs/integrations.md, "Service accounts"):
 * - only people change how people sign in: a service account gets 403 service_account_not_allowed
 *   on every route of single sign-on connections, verified domains, the second-factor policy and
 *   the reset of a member's second factors, and, since they would outlive it, of SCIM tokens and service accounts — even holding both
 *   manager rights over the organization, and reads included;
 * - what it makes that acts on its own belongs to it and ends with it: its webhooks are deleted
 *   with it (migration 0073), the deletion's audit entry names them, and nothing is delivered to
 *   them afterwards.
 */
let portal: TestPortal;
let f: Fixture;
let dns: DnsServer;
let receiver: Receiver;
let worker: WebhookWorker;

beforeAll(async () => {
  dns = await startDnsServer();
  ({ portal, built: f } = await startPortalWith(buildFixture, { DNS_SERVERS: dns.address }));
  receiver = await startReceiver();
  worker = await startWorker(portal);
});
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  await portal?.close();
  await dns?.stop();
});

const db = () => portal.services.db;

/** A service account of dealer-a with both manager rights, made by a person who holds them, and a bearer token of it. */
async function machine(name: string): Promise<{ account: CreatedAccount; client: BearerClient }> {
  const account = await createAccount(f.fullA.client, f.tree.a.id, { name, user_manager: true, organization_manager: true });
  return { account, client: new BearerClient(portal.url, await tokenOf(portal.url, account)) };
}

/** The route families that are people's only, as the router knows them (a new route of them must be added below). */
const PEOPLE_ONLY = /\/(sso-connections|domains|scim-tokens|service-accounts|second-factor-policy|second-factors)(\/|$)/;

describe('a service account with both manager rights', () => {
  it('gets 403 service_account_not_allowed on every route of connections, domains, SCIM tokens, service accounts, the second-factor policy and a member’s second factors; nothing changes', async () => {
    const { account, client } = await machine('Directory sync');
    const north = f.tree.north.id;
    const person = f.fullA.client;

    // what a person made, for the machine to try to change
    const domain = 'machines.example';
    const claimed = await person.post(`/api/organizations/${north}/domains`, { domain });
    expect(claimed.status, claimed.text).toBe(201);
    dns.set(claimed.body.verification.name, claimed.body.verification.value);
    const { rows: connections } = await db().query<{ id: string }>(
      `INSERT INTO sso_connections (organization_id, name, issuer, client_id, domains) VALUES ($1, 'Entra', 'https://sso.invalid', 'portal', $2)
       RETURNING id`,
      [north, ['connected.example']],
    );
    const connectionId = connections[0]!.id;
    const scim = await person.post(`/api/organizations/${north}/scim-tokens`, { name: 'Okta' });
    expect(scim.status, scim.text).toBe(201);
    const other = await createAccount(person, north, { name: 'Other machine', user_manager: true });

    const O = '/api/organizations/{organizationId}';
    /** each route with the call the machine makes of it */
    const calls: [route: string, path: string, body?: unknown][] = [
      [`GET ${O}/sso-connections`, `/api/organizations/${north}/sso-connections`],
      [
        `POST ${O}/sso-connections`,
        `/api/organizations/${north}/sso-connections`,
        { name: 'Machine IdP', issuer: 'https://sso.invalid', client_id: 'portal', domains: [domain] },
      ],
      [
        `PATCH ${O}/sso-connections/{connectionId}`,
        `/api/organizations/${north}/sso-connections/${connectionId}`,
        { name: 'Taken over', just_in_time: true },
      ],
      [`GET ${O}/sso-connections/{connectionId}/members`, `/api/organizations/${north}/sso-connections/${connectionId}/members`],
      [`DELETE ${O}/sso-connections/{connectionId}`, `/api/organizations/${north}/sso-connections/${connectionId}`],
      [`GET ${O}/domains`, `/api/organizations/${north}/domains`],
      [`POST ${O}/domains`, `/api/organizations/${north}/domains`, { domain: 'elsewhere.example' }],
      [`POST ${O}/domains/{domain}/verify`, `/api/organizations/${north}/domains/${domain}/verify`],
      [`DELETE ${O}/domains/{domain}`, `/api/organizations/${north}/domains/${domain}`],
      [`GET ${O}/scim-tokens`, `/api/organizations/${north}/scim-tokens`],
      [`POST ${O}/scim-tokens`, `/api/organizations/${north}/scim-tokens`, { name: 'Machine directory' }],
      [`DELETE ${O}/scim-tokens/{tokenId}`, `/api/organizations/${north}/scim-tokens/${scim.body.id}`],
      [`GET ${O}/service-accounts`, `/api/organizations/${north}/service-accounts`],
      [`POST ${O}/service-accounts`, `/api/organizations/${north}/service-accounts`, { name: 'Offspring', user_manager: true }],
      [`DELETE ${O}/service-accounts/{serviceAccountId}`, `/api/organizations/${north}/service-accounts/${other.id}`],
      [`GET ${O}/second-factor-policy`, `/api/organizations/${north}/second-factor-policy`],
      [`PUT ${O}/second-factor-policy`, `/api/organizations/${north}/second-factor-policy`, { required: true }],
      // a member's second factors are how they sign in too
      [`DELETE /api/members/{memberId}/second-factors`, `/api/members/${f.farmer.memberId}/second-factors`],
    ];
    // every route of these families, as the router has them, is called here
    const routes = routerRoutes(portal.app)
      .filter((r) => r.path.startsWith('/api/') && PEOPLE_ONLY.test(r.path) && r.method !== 'HEAD')
      .map((r) => `${r.method} ${r.path}`);
    expect(calls.map(([route]) => route).sort()).toEqual([...new Set(routes)].sort());

    const answers: string[] = [];
    for (const [route, path, body] of calls) {
      const res = await client.request(route.split(' ')[0]!, path, body === undefined ? {} : { body });
      answers.push(`${route} → ${res.status} ${keyOf(res) ?? ''}`);
    }
    expect(answers).toEqual(calls.map(([route]) => `${route} → 403 service_account_not_allowed`));

    // nothing changed, and the machine made no change the audit log would show
    const connection = await db().query('SELECT name, just_in_time FROM sso_connections WHERE organization_id = $1', [north]);
    expect(connection.rows).toEqual([{ name: 'Entra', just_in_time: false }]);
    const domains = await person.get(`/api/organizations/${north}/domains`);
    expect(domains.body.filter((d: { organization_id: string }) => d.organization_id === north)).toMatchObject([
      { domain, verified: false },
    ]);
    const tokens = await person.get(`/api/organizations/${north}/scim-tokens`);
    expect(tokens.body.map((t: { name: string }) => t.name)).toEqual(['Okta']);
    const accounts = await person.get(`/api/organizations/${north}/service-accounts`);
    expect(accounts.body.map((a: { name: string }) => a.name)).toEqual(['Other machine']);
    const policy = await person.get(`/api/organizations/${north}/second-factor-policy`);
    expect(policy.body).toMatchObject({ required: false, set_here: false });
    const audited = await db().query('SELECT action FROM audit_log WHERE actor_service_account_id = $1', [account.id]);
    expect(audited.rows).toEqual([]);
  });

  it('still does the administrative work it is for (a sub-organization’s name, its webhooks)', async () => {
    const { client } = await machine('Branch sync');
    expect((await client.patch(`/api/organizations/${f.tree.south.id}`, { name: 'South by machine' })).status).toBe(204);
    const hook = await client.post(`/api/organizations/${f.tree.south.id}/webhooks`, { url: `${receiver.url}/south`, events: ['*'] });
    expect(hook.status, hook.text).toBe(201);
    expect((await client.get(`/api/organizations/${f.tree.south.id}/webhooks`)).status).toBe(200);
  });
});

describe('the webhooks of a service account', () => {
  /** Change a member of dealer-a's subtree (member.updated for dealer-a's webhooks), as a person. */
  async function changeFarmer(userManager: boolean): Promise<void> {
    const res = await f.admin.client.put(`/api/members/rights/${f.farmer.memberId}`, {
      rights: { partner_portal: { user_user_manager: userManager } },
    });
    expect(res.status, res.text).toBe(204);
  }

  it('are listed with their owner: service_account_id, null for a person’s', async () => {
    const { account, client } = await machine('Listed relay');
    const made = await client.post(`/api/organizations/${f.tree.north.id}/webhooks`, { url: `${receiver.url}/listed`, events: ['*'] });
    expect(made.status, made.text).toBe(201);
    const mine = await f.fullA.client.post(`/api/organizations/${f.tree.north.id}/webhooks`, {
      url: `${receiver.url}/listed-person`,
      events: ['*'],
    });
    expect(mine.status, mine.text).toBe(201);
    const listed = await f.fullA.client.get(`/api/organizations/${f.tree.north.id}/webhooks`);
    expect(listed.status).toBe(200);
    const byId = new Map(listed.body.map((w: { id: string }) => [w.id, w]));
    expect(byId.get(made.body.id)).toMatchObject({ service_account_id: account.id });
    expect(byId.get(mine.body.id)).toMatchObject({ service_account_id: null });
  });

  it('end with it: deleted with the account (audited with it), and nothing is delivered to them afterwards', async () => {
    const { account, client } = await machine('Event relay');
    const made = await client.post(`/api/organizations/${f.tree.a.id}/webhooks`, { url: `${receiver.url}/machine`, events: ['*'] });
    expect(made.status, made.text).toBe(201);
    receiver.hook('/machine', made.body.secret);
    // a person's webhook beside it, which stays
    const kept = await f.fullA.client.post(`/api/organizations/${f.tree.a.id}/webhooks`, { url: `${receiver.url}/person`, events: ['*'] });
    expect(kept.status, kept.text).toBe(201);
    receiver.hook('/person', kept.body.secret);

    await changeFarmer(true);
    await receiver.waitFor('/machine', 1);
    await receiver.waitFor('/person', 1);

    const deleted = await f.fullA.client.delete(`/api/organizations/${f.tree.a.id}/service-accounts/${account.id}`);
    expect(deleted.status, deleted.text).toBe(204);

    const listed = await f.fullA.client.get(`/api/organizations/${f.tree.a.id}/webhooks`);
    expect(listed.status).toBe(200);
    const ids = listed.body.map((w: { id: string }) => w.id);
    expect(ids).toContain(kept.body.id);
    expect(ids).not.toContain(made.body.id);
    expect((await db().query('SELECT 1 FROM webhooks WHERE id = $1', [made.body.id])).rowCount).toBe(0);
    expect((await db().query('SELECT 1 FROM outbox WHERE webhook_id = $1', [made.body.id])).rowCount).toBe(0);

    // the deletion's audit entry names what went with the account
    const audit = await db().query<{ before: Record<string, unknown> }>(
      "SELECT before FROM audit_log WHERE action = 'service_account.delete' AND target_id = $1",
      [account.id],
    );
    expect(audit.rows).toEqual([
      {
        before: expect.objectContaining({
          name: 'Event relay',
          removed_with_it: { webhooks: [{ id: made.body.id, url: `${receiver.url}/machine` }] },
        }),
      },
    ]);

    // a later change reaches the person's webhook, and no delivery is made for the account's
    const machineBefore = receiver.received.filter((r) => r.path === '/machine').length;
    await changeFarmer(false);
    await receiver.waitFor('/person', 2);
    await expect
      .poll(async () => (await db().query("SELECT state FROM outbox WHERE webhook_id = $1 AND state = 'pending'", [kept.body.id])).rowCount)
      .toBe(0);
    expect(receiver.received.filter((r) => r.path === '/machine').length).toBe(machineBefore);
    const hooksWithDeliveries = await db().query<{ webhook_id: string }>("SELECT DISTINCT webhook_id FROM outbox WHERE kind = 'webhook'");
    expect(hooksWithDeliveries.rows.map((r) => r.webhook_id)).not.toContain(made.body.id);
  });
});
