import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookPayload } from '@partner-portal/contracts';
import { startPortalWith, type TestPortal } from '../support/portal.js';
import { buildFixture, createMember, createOrg, PARTNER_APPS, rootOrg, type Fixture, type Org } from '../organizations/fixtures.js';
import { expireInvitations } from '../../src/modules/invitations/expiry.js';
import type { WebhookWorker } from '../../src/modules/webhooks/worker.js';
import { until } from '../support/wait.js';
import { deliveriesSettled, startReceiver, startWorker, type Receiver } from './support.js';

/**
 * Deliveries (docs/integrations.md, "Webhooks"), end to end: the services record events in their
 * transactions, the worker sends them after commit to a receiver on 127.0.0.1 that verifies every
 * signature with the `standardwebhooks` package. Retries run at WEBHOOK_RETRY_BASE_SECONDS=0.25 and a
 * two-second time-out. A test that sees that no other delivery came first waits until none is pending.
 */
const RETRY_BASE_SECONDS = 0.25;
let portal: TestPortal;
let f: Fixture;
let receiver: Receiver;
let worker: WebhookWorker;

beforeAll(async () => {
  ({ portal, built: f } = await startPortalWith(buildFixture, {
    WEBHOOK_RETRY_BASE_SECONDS: String(RETRY_BASE_SECONDS),
    WEBHOOK_TIMEOUT_SECONDS: '2',
  }));
  receiver = await startReceiver();
  worker = await startWorker(portal);
});
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  await portal?.close();
});

/** Subscribe a receiver path to an organization's events, as the provider's administrator. */
async function subscribe(org: Org, path: string, events: string[] = ['*']): Promise<string> {
  const res = await f.admin.client.post(`/api/organizations/${org.id}/webhooks`, { url: `${receiver.url}${path}`, events });
  expect(res.status, res.text).toBe(201);
  receiver.hook(path, res.body.secret);
  return res.body.id as string;
}

/**
 * The event types received, each message once: at least once allows a message to come again (the
 * same webhook-id) when an answer was late on a busy machine; any other duplicate is an error.
 */
const types = (received: { payload: WebhookPayload | null; headers: Record<string, unknown> }[]) =>
  [...new Map(received.map((r) => [r.headers['webhook-id'], r.payload!.type])).values()].sort();
const deliveriesOf = async (org: Org, webhookId: string) => {
  const res = await f.admin.client.get(`/api/organizations/${org.id}/webhooks/${webhookId}/deliveries`);
  expect(res.status, res.text).toBe(200);
  return res.body.deliveries as any[];
};

describe('webhook deliveries', () => {
  it('delivers the events of the subtree, signed; a sibling’s are not delivered, nor an ancestor’s to a descendant', async () => {
    await subscribe(f.tree.a, '/subtree/a');
    await subscribe(f.tree.north, '/subtree/north', ['organization.created', 'member.updated', 'invitation.created']);
    await subscribe(f.tree.b, '/subtree/b');

    const made = await f.admin.client.post('/api/organizations', {
      parent_organization_id: f.tree.north.id,
      name: 'Field',
      client_ids: [],
    });
    expect(made.status, made.text).toBe(201);
    const invited = await f.admin.client.post(`/api/organizations/${f.tree.b.id}/invitations`, {
      email_address: 'sibling.invitee@example.com',
      language_code: 'en',
    });
    expect(invited.status, invited.text).toBe(201);
    const rights = await f.mgrNorth.client.put(`/api/members/rights/${f.farmer.memberId}`, {
      rights: { partner_portal: { user_user_manager: true } },
    });
    expect(rights.status, rights.text).toBe(204);
    const renamed = await f.admin.client.patch(`/api/organizations/${f.tree.south.id}`, { name: 'South Renamed' });
    expect(renamed.status, renamed.text).toBe(204);

    const a = await receiver.waitFor('/subtree/a', 3);
    const north = await receiver.waitFor('/subtree/north', 2);
    const b = await receiver.waitFor('/subtree/b', 1);
    await deliveriesSettled(portal);
    expect(types(receiver.verified('/subtree/a'))).toEqual(['member.updated', 'organization.created', 'organization.updated']);
    expect(types(receiver.verified('/subtree/north'))).toEqual(['member.updated', 'organization.created']);
    expect(types(receiver.verified('/subtree/b'))).toEqual(['invitation.created']);
    expect(receiver.received.filter((r) => r.path.startsWith('/subtree/') && !r.payload)).toEqual([]);

    // the body and the Standard Webhooks headers
    const created = a.find((r) => r.payload!.type === 'organization.created')!;
    expect(created.headers['content-type']).toBe('application/json');
    expect(created.headers['webhook-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(created.headers['webhook-timestamp'])).toBeCloseTo(Date.now() / 1000, -2);
    expect(created.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(Object.keys(JSON.parse(created.body)).sort()).toEqual(['data', 'timestamp', 'type']);
    expect(created.payload).toEqual({
      type: 'organization.created',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      data: { organization_id: made.body.id, name: 'Field', path: `${f.tree.north.path}/field`, parent_id: f.tree.north.id },
    });
    // one delivery per subscription: the same event, another webhook-id
    const sameInNorth = north.find((r) => r.payload!.type === 'organization.created')!;
    expect(sameInNorth.body).toBe(created.body);
    expect(sameInNorth.headers['webhook-id']).not.toBe(created.headers['webhook-id']);
    expect(b[0]!.payload!.data).toMatchObject({ organization_id: f.tree.b.id, email_address: 'sibling.invitee@example.com' });
    const updated = a.find((r) => r.payload!.type === 'member.updated')!.payload!;
    expect(updated.data).toMatchObject({
      organization_id: f.tree.farm.id,
      member_id: f.farmer.memberId,
      user_id: f.farmer.userId,
      email_address: f.farmer.email,
      first_name: 'farmer',
      last_name: 'Tester',
      language_code: 'en',
      changed: ['rights'],
      rights: expect.objectContaining({ partner_portal: expect.objectContaining({ user_user_manager: true }) }),
    });
  });

  it('carries every event of the services, each with its data', async () => {
    const root = await rootOrg(portal);
    const life = await createOrg(portal, root, 'Lifecycle', { canCreate: true });
    const hookId = await subscribe(life, '/life');
    const admin = f.admin.client;
    const expected: string[] = [];

    const child = await admin.post('/api/organizations', {
      parent_organization_id: life.id,
      name: 'Child',
      client_ids: [],
      can_create_sub_organization: true,
    });
    expect(child.status, child.text).toBe(201);
    const childId = child.body.id as string;
    expected.push('organization.created');
    expect((await admin.patch(`/api/organizations/${childId}`, { name: 'Child Two' })).status).toBe(204);
    const apps = (client_ids: string[]) => admin.patch(`/api/organizations/${childId}/apps`, { client_ids });
    const canCreate = (value: boolean) =>
      admin.patch(`/api/organizations/${childId}/can-create-sub-organizations?canCreateSubOrganizations=${value}`);
    expect((await apps([PARTNER_APPS[0]!])).status).toBe(204);
    expect((await canCreate(false)).status).toBe(204);
    // the same settings again: nothing changed, no event
    expect((await apps([PARTNER_APPS[0]!])).status).toBe(204);
    expect((await canCreate(false)).status).toBe(204);
    expect((await admin.patch(`/api/organizations/${childId}`, { name: 'Child Two' })).status).toBe(204);
    expect(
      (await admin.put(`/api/organizations/${childId}/allowed-email-domains`, { allowed_email_domains: ['example.com'] })).status,
    ).toBe(204);
    expected.push('organization.updated', 'organization.updated', 'organization.updated', 'organization.updated');

    const invite = async (email: string) => {
      const res = await admin.post(`/api/organizations/${childId}/invitations`, { email_address: email, language_code: 'nl' });
      expect(res.status, res.text).toBe(201);
      return res.body.invitation.invitation_id as string;
    };
    const revoked = await invite('revoked.person@example.com');
    expect((await admin.put(`/api/invitations/${revoked}/revoke`)).status).toBe(204);
    const accepted = await invite('accepted.person@example.com');
    const mail = await portal.smtp.waitFor('accepted.person@example.com');
    const code = new URL(mail.links.find((l) => l.includes('/invitation/'))!).searchParams.get('code')!;
    const accept = await portal.client().put(`/api/invitations/${accepted}/accept`, {
      invitation_code: code,
      first_name: 'Acc',
      last_name: 'Epted',
      language_code: 'de',
      password: 'Str0ng-Passw0rd!x',
      password_confirmation: 'Str0ng-Passw0rd!x',
      opt_in_for_newsletter: false,
      accept_agreement: true,
    });
    expect(accept.status, accept.text).toBe(204);
    const expiring = await invite('expired.person@example.com');
    await portal.services.db.query("UPDATE invitations SET expires_at = now() - interval '1 minute' WHERE id = $1", [expiring]);
    expect(await expireInvitations(portal.services.db)).toBeGreaterThanOrEqual(1);
    expected.push(...['invitation.created', 'invitation.revoked', 'invitation.created', 'invitation.accepted', 'member.created']);
    expected.push('invitation.created', 'invitation.expired');

    const member = await portal.services.db.query<{ id: string; user_id: string }>(
      'SELECT m.id, m.user_id FROM memberships m WHERE lower(m.email) = $1',
      ['accepted.person@example.com'],
    );
    const { id: memberId, user_id: userId } = member.rows[0]!;
    expect((await admin.put(`/api/members/rights/${memberId}`, { rights: { partner_portal: { user_user_manager: true } } })).status).toBe(
      204,
    );
    // the same rights again: nothing changed, no event
    expect((await admin.put(`/api/members/rights/${memberId}`, { rights: { partner_portal: { user_user_manager: true } } })).status).toBe(
      204,
    );
    const self = await portal.sessionFor(userId);
    expect((await self.put('/api/identity/update-profile', { first_name: 'Accie', last_name: 'Epted', language_code: 'fr' })).status).toBe(
      204,
    );
    expect((await admin.delete(`/api/organizations/${childId}/members/${memberId}`)).status).toBe(204);
    expect((await admin.delete(`/api/organizations/${childId}`)).status).toBe(204);
    expected.push('member.updated', 'member.updated', 'member.removed', 'organization.deleted');

    const got = await receiver.waitFor('/life', expected.length);
    await deliveriesSettled(portal);
    expect(types(receiver.verified('/life'))).toEqual([...expected].sort());
    const all = [...new Map(got.map((r) => [r.headers['webhook-id'], r.payload!])).values()];
    const of = (type: string) => all.filter((p) => p.type === type).map((p) => p.data as Record<string, unknown>);
    for (const p of all) expect(p.data.organization_id).toBe(childId);

    expect(of('organization.updated').map((d) => d.changed)).toEqual(
      expect.arrayContaining([['name', 'path'], ['apps'], ['can_create_sub_organization'], ['allowed_email_domains']]),
    );
    expect(of('organization.updated')[0]).toMatchObject({ parent_id: life.id });
    expect(of('organization.deleted')[0]).toEqual({
      organization_id: childId,
      name: 'Child Two',
      path: `${life.path}/child-two`,
      parent_id: life.id,
    });
    expect(of('invitation.created').map((d) => d.email_address)).toEqual(
      expect.arrayContaining(['revoked.person@example.com', 'accepted.person@example.com', 'expired.person@example.com']),
    );
    expect(of('invitation.created').find((d) => d.invitation_id === revoked)).toMatchObject({
      language_code: 'nl',
      is_external_identity_provider: false,
      rights: null,
      expires_at: expect.any(String),
    });
    expect(of('invitation.revoked')).toEqual([
      { organization_id: childId, invitation_id: revoked, email_address: 'revoked.person@example.com' },
    ]);
    expect(of('invitation.accepted')).toEqual([
      {
        organization_id: childId,
        invitation_id: accepted,
        email_address: 'accepted.person@example.com',
        member_id: memberId,
        user_id: userId,
      },
    ]);
    expect(of('invitation.expired')).toEqual([
      { organization_id: childId, invitation_id: expiring, email_address: 'expired.person@example.com', expires_at: expect.any(String) },
    ]);
    expect(of('member.created')).toEqual([
      {
        organization_id: childId,
        member_id: memberId,
        user_id: userId,
        email_address: 'accepted.person@example.com',
        first_name: 'Acc',
        last_name: 'Epted',
        language_code: 'de',
        rights: expect.any(Object),
        source: 'invitation',
        invitation_id: accepted,
      },
    ]);
    expect(of('member.updated').map((d) => d.changed)).toEqual(expect.arrayContaining([['rights'], ['first_name', 'language_code']]));
    expect(of('member.updated').find((d) => (d.changed as string[]).includes('first_name'))).toMatchObject({
      first_name: 'Accie',
      language_code: 'fr',
    });
    expect(of('member.removed')).toEqual([
      { organization_id: childId, member_id: memberId, user_id: userId, email_address: 'accepted.person@example.com' },
    ]);

    // every one of them delivered, as the deliveries call shows (each attempt logged)
    const deliveries = await deliveriesOf(life, hookId);
    expect(deliveries).toHaveLength(expected.length);
    for (const d of deliveries) {
      expect(d).toMatchObject({ state: 'succeeded', next_attempt_at: null });
      expect(d.attempts).toHaveLength(d.attempt_count);
      expect(d.attempts.at(-1)).toEqual({ attempted_at: expect.any(String), status: 200, duration_ms: expect.any(Number), error: null });
    }
  });

  it('writes nothing for a change that is refused (its transaction rolls back)', async () => {
    const root = await rootOrg(portal);
    const org = await createOrg(portal, root, 'Refusals', { canCreate: true });
    await subscribe(org, '/refusals');
    const count = async () =>
      (
        await portal.services.db.query('SELECT 1 FROM outbox d JOIN webhooks w ON w.id = d.webhook_id WHERE w.organization_id = $1', [
          org.id,
        ])
      ).rowCount;
    const first = await f.admin.client.post('/api/organizations', { parent_organization_id: org.id, name: 'Twin', client_ids: [] });
    expect(first.status).toBe(201);
    await receiver.waitFor('/refusals', 1);
    const twin = await f.admin.client.post('/api/organizations', { parent_organization_id: org.id, name: 'Twin', client_ids: [] });
    expect(twin.status).toBe(409);
    const member = await createMember(portal, org, 'Keeper', () => undefined);
    const refused = await f.admin.client.delete(`/api/organizations/${org.id}`);
    expect(refused.status).toBe(409);
    expect(member.memberId).toBeTruthy();
    await deliveriesSettled(portal);
    expect(await count()).toBe(1);
    expect(types(receiver.verified('/refusals'))).toEqual(['organization.created']);
  });

  it('tries again after a 500 and after no answer within the time-out, with growing delays, and logs every attempt', async () => {
    const root = await rootOrg(portal);
    const org = await createOrg(portal, root, 'Flaky', { canCreate: true });
    const hookId = await subscribe(org, '/flaky');
    // 500, then no answer in time (three seconds, the time-out is two), then 204
    receiver.answer('/flaky', (n) => (n === 0 ? { status: 500 } : n === 1 ? { delayMs: 3000 } : { status: 204 }));
    const started = Date.now();
    expect(
      (await f.admin.client.post('/api/organizations', { parent_organization_id: org.id, name: 'Retried', client_ids: [] })).status,
    ).toBe(201);
    const got = await receiver.waitFor('/flaky', 3, 20_000);
    // first retry after the base, the second after 4 × the base (and the two seconds the second attempt waited)
    expect(got[1]!.at - got[0]!.at).toBeGreaterThanOrEqual(RETRY_BASE_SECONDS * 900);
    expect(got[2]!.at - got[1]!.at).toBeGreaterThanOrEqual(RETRY_BASE_SECONDS * 4 * 900 + 1950);
    expect(Date.now() - started).toBeLessThan(18_000);
    // the same message each time: same id, same body, a fresh signature and timestamp
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(new Set(got.map((r) => r.body)).size).toBe(1);
    await deliveriesSettled(portal);
    const [delivery] = await deliveriesOf(org, hookId);
    expect(delivery).toMatchObject({ state: 'succeeded', attempt_count: 3, event_type: 'organization.created' });
    expect(delivery.attempts.map((a: any) => [a.status, a.error])).toEqual([
      [500, 'answered 500'],
      [null, 'no answer within 2 s'],
      [204, null],
    ]);
    expect(delivery.attempts[1].duration_ms).toBeGreaterThanOrEqual(1950);
    expect(delivery.attempts[1].duration_ms).toBeLessThan(2900);
  });

  it('gives up after the last attempt, and sends a delivery again on request (the same webhook-id)', async () => {
    const root = await rootOrg(portal);
    const org = await createOrg(portal, root, 'Down', { canCreate: true });
    const hookId = await subscribe(org, '/down');
    // this test writes "six retries failed already" between the first attempt and its retry: a sender
    // at a base of 1 s leaves the time for that (the sender at the file's base of 0.25 s is stopped)
    await worker.stop();
    worker = await startWorker({ ...portal.services, config: { ...portal.services.config, WEBHOOK_RETRY_BASE_SECONDS: 1 } });
    receiver.answer('/down', () => ({ status: 503 }));
    expect((await f.admin.client.post('/api/organizations', { parent_organization_id: org.id, name: 'Lost', client_ids: [] })).status).toBe(
      201,
    );
    await receiver.waitFor('/down', 1);
    // its failure written (the retry comes a base later)
    const attempts = async () =>
      (await portal.services.db.query<{ attempts: number }>('SELECT attempts FROM outbox WHERE webhook_id = $1', [hookId])).rows[0]
        ?.attempts ?? 0;
    await until('the first attempt written', async () => (await attempts()) >= 1, 15_000, 10);
    // as if six retries had failed already: the next attempt is the last
    await portal.services.db.query("UPDATE outbox SET attempts = 7, next_attempt_at = now() WHERE webhook_id = $1 AND state = 'pending'", [
      hookId,
    ]);
    worker.wake();
    await receiver.waitFor('/down', 2);
    await deliveriesSettled(portal);
    let [delivery] = await deliveriesOf(org, hookId);
    expect(delivery).toMatchObject({ state: 'failed', attempt_count: 8, next_attempt_at: null, completed_at: expect.any(String) });
    // the sender woken and through another delivery since: the failed one was not sent again
    const beacon = await createOrg(portal, root, 'Down Beacon', { canCreate: true });
    await subscribe(beacon, '/down-beacon', ['organization.updated']);
    expect((await f.admin.client.patch(`/api/organizations/${beacon.id}`, { name: 'Down Beacon Renamed' })).status).toBe(204);
    worker.wake();
    await receiver.waitFor('/down-beacon', 1);
    await deliveriesSettled(portal);
    expect(receiver.verified('/down')).toHaveLength(2);

    // redelivery on request: one attempt more, now answered
    receiver.answer('/down', () => ({ status: 200 }));
    const retried = await f.orgMgrA.client.post(`/api/organizations/${org.id}/webhooks/${hookId}/deliveries/${delivery.id}/retry`);
    expect(retried.status).toBe(403);
    const again = await f.admin.client.post(`/api/organizations/${org.id}/webhooks/${hookId}/deliveries/${delivery.id}/retry`);
    expect(again.status, again.text).toBe(202);
    expect(again.body).toEqual({ id: delivery.id, state: 'pending' });
    const got = await receiver.waitFor('/down', 3);
    expect(got[2]!.headers['webhook-id']).toBe(delivery.id);
    await deliveriesSettled(portal);
    [delivery] = await deliveriesOf(org, hookId);
    expect(delivery).toMatchObject({ state: 'succeeded', attempt_count: 9 });
    expect(delivery.attempts.map((a: any) => a.status)).toEqual([503, 503, 200]);

    // a succeeded delivery sent again is received again with the same id
    expect((await f.admin.client.post(`/api/organizations/${org.id}/webhooks/${hookId}/deliveries/${delivery.id}/retry`)).status).toBe(202);
    const fourth = await receiver.waitFor('/down', 4);
    expect(fourth[3]!.headers['webhook-id']).toBe(delivery.id);
    const audit = await portal.services.db.query<{ action: string }>(
      "SELECT action FROM audit_log WHERE action LIKE 'webhook.delivery.retry%' AND target_id = $1",
      [hookId],
    );
    expect(audit.rowCount).toBe(2);
    // an unknown delivery, or another webhook's: 404
    const other = await subscribe(org, '/down-other');
    const wrong = await f.admin.client.post(`/api/organizations/${org.id}/webhooks/${other}/deliveries/${delivery.id}/retry`);
    expect(wrong.status).toBe(404);
    expect(wrong.body.i18NTranslationKey).toBe('unknown_webhook');
  });

  it('a receiver that is slow to answer holds up nobody else’s deliveries', async () => {
    const root = await rootOrg(portal);
    const slowOrg = await createOrg(portal, root, 'Slow Receiver', { canCreate: true });
    const fastOrg = await createOrg(portal, root, 'Fast Receiver', { canCreate: true });
    await subscribe(slowOrg, '/slow', ['organization.created']);
    await subscribe(fastOrg, '/fast', ['organization.created']);
    receiver.answer('/slow', () => ({ status: 200, delayMs: 1500 }));
    const create = (org: Org, name: string) =>
      f.admin.client.post('/api/organizations', { parent_organization_id: org.id, name, client_ids: [] });
    // one change after another for the slow receiver: more than the sender has runners
    for (let i = 0; i < 6; i++) expect((await create(slowOrg, `Slow ${i}`)).status).toBe(201);
    const started = Date.now();
    expect((await create(fastOrg, 'Fast')).status).toBe(201);
    const [fast] = await receiver.waitFor('/fast', 1);
    expect(fast!.at - started, 'the fast receiver waited for the slow one').toBeLessThan(1000);
    const slow = await receiver.waitFor('/slow', 6, 20_000);
    expect(types(slow)).toHaveLength(6);
  });

  it('lists deliveries newest first, a page at a time, filtered by state', async () => {
    const root = await rootOrg(portal);
    const org = await createOrg(portal, root, 'Listed', { canCreate: true });
    const hookId = await subscribe(org, '/listed', ['organization.created']);
    for (const name of ['One', 'Two', 'Three']) {
      expect((await f.admin.client.post('/api/organizations', { parent_organization_id: org.id, name, client_ids: [] })).status).toBe(201);
    }
    await receiver.waitFor('/listed', 3);
    await deliveriesSettled(portal);
    const page = await f.admin.client.get(`/api/organizations/${org.id}/webhooks/${hookId}/deliveries?page=1&state=succeeded`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ total: 3, page: 1, page_size: 50 });
    expect(page.body.deliveries.map((d: any) => d.payload.data.name)).toEqual(['Three', 'Two', 'One']);
    const none = await f.admin.client.get(`/api/organizations/${org.id}/webhooks/${hookId}/deliveries?state=failed`);
    expect(none.body).toMatchObject({ total: 0, deliveries: [] });
    expect((await f.admin.client.get(`/api/organizations/${org.id}/webhooks/${hookId}/deliveries?state=lost`)).status).toBe(400);
  });
});
