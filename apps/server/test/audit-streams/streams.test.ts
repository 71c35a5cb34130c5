import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortalWith, type TestPortal } from '../support/portal.js';
import { buildFixture, createOrg, type Fixture, type Org } from '../organizations/fixtures.js';
import { startReceiver, type Receiver } from '../webhooks/support.js';
import { BearerClient, createAccount, keyOf, tokenOf } from '../service-accounts/support.js';
import type { HttpClient } from '../support/http.js';
import type { AuditStreamWorker } from '../../src/modules/audit-streams/worker.js';
import { insertAuditEntry } from '../../src/modules/audit/queries.js';
import { sweepOrphanRows } from '../../src/modules/audit-streams/queries.js';
import {
  datadogLogs,
  firstArrivals,
  splunkEvents,
  startCollector,
  startStreamWorker,
  type Collector,
  type StreamedEntry,
} from './support.js';

/**
 * Audit streams (docs/integrations.md, "Audit streams"), end to end: audited changes made through
 * HTTP reach real receivers on 127.0.0.1 through the outbox's lane of audit streams — an https
 * receiver verifying each Standard Webhooks signature with the `standardwebhooks` package, a
 * Splunk HEC collector and a Datadog logs intake checking their headers and bodies. Retries run at
 * WEBHOOK_RETRY_BASE_SECONDS=1. On PostgreSQL two lanes send, as two instances would.
 */
let portal: TestPortal;
let f: Fixture;
let receiver: Receiver;
let collector: Collector;
let worker: AuditStreamWorker;
let secondWorker: AuditStreamWorker | undefined;

beforeAll(async () => {
  ({ portal, built: f } = await startPortalWith(buildFixture, { WEBHOOK_RETRY_BASE_SECONDS: '1', WEBHOOK_TIMEOUT_SECONDS: '2' }));
  receiver = await startReceiver();
  collector = await startCollector();
  worker = await startStreamWorker(portal);
  // on PostgreSQL a second lane, as a second instance's: the two share the streams (FOR UPDATE SKIP LOCKED), in order
  if (portal.services.db.kind === 'postgres') secondWorker = await startStreamWorker(portal);
});
afterAll(async () => {
  await worker?.stop();
  await secondWorker?.stop();
  await receiver?.close();
  await collector?.close();
  await portal?.close();
});

const base = (org: Org) => `/api/organizations/${org.id}/audit-streams`;

/** An audited change of an organization, made by the provider's administrator (always audited, also when nothing changes). */
async function change(org: Org): Promise<void> {
  const res = await f.admin.client.patch(`/api/organizations/${org.id}/can-create-sub-organizations?canCreateSubOrganizations=false`);
  expect(res.status, res.text).toBe(204);
}

/** The ids of the audit trail of an organization's subtree after `afterId`, oldest first, as GET /api/audit lists them. */
async function trailIds(org: Org, afterId: number): Promise<string[]> {
  const res = await f.admin.client.get(`/api/audit?organizationId=${org.id}`);
  expect(res.status, res.text).toBe(200);
  return (res.body.entries as { id: string }[])
    .map((e) => e.id)
    .filter((id) => Number(id) > afterId)
    .reverse();
}

async function lastEntryId(): Promise<number> {
  const { rows } = await portal.services.db.query<{ id: string | null }>('SELECT max(id)::text AS id FROM audit_log');
  return Number(rows[0]!.id ?? 0);
}

async function create(client: HttpClient, org: Org, body: object): Promise<{ id: string; secret?: string }> {
  const res = await client.post(base(org), body);
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; secret?: string };
}

async function streamOf(org: Org, id: string) {
  const res = await f.admin.client.get(base(org));
  expect(res.status, res.text).toBe(200);
  return (res.body as any[]).find((s) => s.id === id);
}

const fieldKeys = (body: any) =>
  Object.fromEntries(Object.entries(body.errors ?? {}).map(([field, list]) => [field, (list as any[]).map((e) => e.translation_key)]));

/** The entries an https receiver path verified, in the order they came. */
const httpsEntries = (path: string) => receiver.verified(path).map((r) => (r.payload as unknown as { data: StreamedEntry }).data);

describe('audit streams', () => {
  it('https: every entry of the subtree, signed, in order, as the export shows it; a sibling’s and an ancestor’s are not sent', async () => {
    const before = await lastEntryId();
    // an organizationManager of an ancestor (dealer-a) makes a stream of dealer-a/north
    const made = await create(f.orgMgrA.client, f.tree.north, { kind: 'https', url: `${receiver.url}/north`, description: 'SIEM' });
    expect(made.secret).toMatch(/^whsec_/);
    receiver.hook('/north', made.secret!);

    await change(f.tree.north);
    await change(f.tree.farm);
    await change(f.tree.a); // the ancestor
    await change(f.tree.b); // a sibling of the ancestor
    await change(f.tree.barn);
    await change(f.tree.north);

    const expected = await trailIds(f.tree.north, before);
    expect(expected.length).toBe(5); // the stream's creation and four changes
    await expect.poll(() => firstArrivals(httpsEntries('/north')), { timeout: 15_000 }).toEqual(expected);
    const entries = httpsEntries('/north');
    expect(
      entries.every((e) => e.organization_path === f.tree.north.path || e.organization_path!.startsWith(`${f.tree.north.path}/`)),
    ).toBe(true);

    // the body and the Standard Webhooks headers; the entry as the export shows it
    const first = receiver.verified('/north')[0]!;
    expect(first.headers['webhook-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.headers['webhook-signature']).toMatch(/^v1,/);
    expect(Object.keys(JSON.parse(first.body)).sort()).toEqual(['data', 'timestamp', 'type']);
    expect(Object.keys(entries[0]!).sort()).toEqual(
      [
        'id',
        'occurred_at',
        'actor_email',
        'actor_user_id',
        'actor_service_account_id',
        'actor_name',
        'organization_path',
        'organization_id',
        'action',
        'target_type',
        'target_id',
        'before',
        'after',
        'request_id',
      ].sort(),
    );
    expect(entries[0]).toMatchObject({
      action: 'audit_stream.create',
      target_type: 'audit_stream',
      target_id: made.id,
      actor_email: f.orgMgrA.email,
    });
    expect(entries[1]).toMatchObject({
      action: 'organization.can_create_sub_organizations.update',
      organization_id: f.tree.north.id,
      actor_email: 'admin@example.com',
      after: expect.objectContaining({ can_create_sub_organization: false }),
    });

    const listed = await streamOf(f.tree.north, made.id);
    expect(listed).toEqual({
      id: made.id,
      organization_id: f.tree.north.id,
      kind: 'https',
      url: `${receiver.url}/north`,
      description: 'SIEM',
      state: 'active',
      last_delivered_at: expect.any(String),
      last_error: null,
      created_at: expect.any(String),
    });
    expect(JSON.stringify(listed)).not.toContain('whsec_');

    // replay from the time of the third entry: it and the later ones come again, in order, after what was pending
    const third = entries[2]!;
    const sent = receiver.verified('/north').length;
    const replay = await f.admin.client.post(`${base(f.tree.north)}/${made.id}/replay`, { from: third.occurred_at });
    expect(replay.status, replay.text).toBe(202);
    const replayed = (await trailIds(f.tree.north, Number(third.id) - 1)).filter((id) => Number(id) <= Number(entries.at(-1)!.id));
    await expect
      .poll(
        () =>
          httpsEntries('/north')
            .slice(sent)
            .map((e) => e.id)
            .slice(0, replayed.length),
        { timeout: 15_000 },
      )
      .toEqual(replayed);
    expect(replay.body.queued).toBeGreaterThanOrEqual(replayed.length);
  });

  it('splunk_hec and datadog: batches of events with their token, in order', async () => {
    const before = await lastEntryId();
    const splunk = await create(f.admin.client, f.tree.a, { kind: 'splunk_hec', url: `${collector.url}/hec/a`, token: 'hec-token-a' });
    const datadog = await create(f.mgrNorth.client, f.tree.farm, { kind: 'datadog', url: `${collector.url}/dd/farm`, token: 'dd-key' });
    expect(splunk.secret).toBeUndefined();
    expect(datadog.secret).toBeUndefined();
    for (let i = 0; i < 3; i++) {
      await change(f.tree.farm);
      await change(f.tree.south);
    }
    await change(f.tree.b);
    const ofA = await trailIds(f.tree.a, before);
    const ofFarm = await trailIds(f.tree.farm, before);
    expect(ofFarm.length).toBe(4);
    await expect.poll(() => firstArrivals(splunkEvents(collector, '/hec/a', 'hec-token-a')), { timeout: 15_000 }).toEqual(ofA);
    await expect.poll(() => firstArrivals(datadogLogs(collector, '/dd/farm', 'dd-key')), { timeout: 15_000 }).toEqual(ofFarm);
    expect(splunkEvents(collector, '/hec/a', 'hec-token-a').some((e) => e.organization_id === f.tree.b.id)).toBe(false);
  });

  it('a collector answering 500: the stream is failing with the error, later entries wait, nothing is lost; then active again', async () => {
    let down = true;
    collector.answer('/hec/b', () => (down ? 500 : 200));
    const before = await lastEntryId();
    const made = await create(f.admin.client, f.tree.b, { kind: 'splunk_hec', url: `${collector.url}/hec/b`, token: 't-b' });
    for (let i = 0; i < 4; i++) await change(f.tree.b);
    await expect.poll(async () => (await streamOf(f.tree.b, made.id)).state, { timeout: 15_000 }).toBe('failing');
    expect((await streamOf(f.tree.b, made.id)).last_error).toBe('answered 500');
    // head of line: only the first entry was tried
    const refused = collector.requests.filter((r) => r.path === '/hec/b' && r.status === 500);
    const heads = refused.map((r) => (JSON.parse(r.body.split('\n')[0]!) as { event: StreamedEntry }).event.id);
    expect(new Set(heads)).toEqual(new Set([heads[0]]));
    down = false;
    const expected = await trailIds(f.tree.b, before);
    await expect.poll(() => firstArrivals(splunkEvents(collector, '/hec/b', 't-b')), { timeout: 20_000 }).toEqual(expected);
    await expect.poll(async () => (await streamOf(f.tree.b, made.id)).state, { timeout: 10_000 }).toBe('active');
  });

  it('a paused stream keeps its entries and sends them when resumed; PATCH and DELETE', async () => {
    const before = await lastEntryId();
    const made = await create(f.admin.client, f.tree.south, { kind: 'datadog', url: `${collector.url}/dd/south`, token: 'k1' });
    const patch = (body: object) => f.admin.client.patch(`${base(f.tree.south)}/${made.id}`, body);
    expect((await patch({ paused: true })).status).toBe(204);
    expect((await streamOf(f.tree.south, made.id)).state).toBe('paused');
    await change(f.tree.south);
    await change(f.tree.south);
    // another stream's later entry arrives meanwhile; the paused one's wait in the outbox
    const probe = await create(f.admin.client, f.tree.south, { kind: 'https', url: `${receiver.url}/south-probe` });
    receiver.hook('/south-probe', probe.secret!);
    await change(f.tree.south);
    await receiver.waitFor('/south-probe', 2);
    // at most the stream's creation went before the pause
    expect(datadogLogs(collector, '/dd/south', 'k1').filter((e) => e.action !== 'audit_stream.create')).toEqual([]);
    expect(collector.requests.filter((r) => r.path === '/dd/south-2')).toEqual([]);

    // resumed at a new URL with a new token: everything kept arrives there, in order
    const res = await patch({ paused: false, url: `${collector.url}/dd/south-2`, token: 'k2', description: 'Moved' });
    expect(res.status, res.text).toBe(204);
    const all = await trailIds(f.tree.south, before);
    const arrived = () => firstArrivals([...datadogLogs(collector, '/dd/south', 'k1'), ...datadogLogs(collector, '/dd/south-2', 'k2')]);
    await expect.poll(arrived, { timeout: 15_000 }).toEqual(all);
    expect(await streamOf(f.tree.south, made.id)).toMatchObject({
      state: 'active',
      description: 'Moved',
      url: `${collector.url}/dd/south-2`,
    });

    const deleted = await f.admin.client.delete(`${base(f.tree.south)}/${made.id}`);
    expect(deleted.status, deleted.text).toBe(204);
    expect(await streamOf(f.tree.south, made.id)).toBeUndefined();
    const { rows } = await portal.services.db.query(`SELECT 1 FROM outbox WHERE kind = 'audit_stream' AND payload->>'stream_id' = $1`, [
      made.id,
    ]);
    expect(rows).toEqual([]);
    expect(keyOf(await f.admin.client.delete(`${base(f.tree.south)}/${made.id}`))).toBe('unknown_audit_stream');
  });

  it('the entries kept for a paused stream go when its organization is deleted: the hourly clean-up removes them', async () => {
    const branch = await createOrg(portal, f.tree.south, 'Short-lived branch');
    const made = await create(f.admin.client, branch, { kind: 'https', url: `${receiver.url}/short-lived` });
    expect((await f.admin.client.patch(`${base(branch)}/${made.id}`, { paused: true })).status).toBe(204);
    await change(branch);
    const kept = () =>
      portal.services.db.query(`SELECT 1 FROM outbox WHERE kind = 'audit_stream' AND state = 'pending' AND payload->>'stream_id' = $1`, [
        made.id,
      ]);
    expect((await kept()).rows.length).toBeGreaterThan(0);
    const deleted = await f.admin.client.delete(`/api/organizations/${branch.id}`);
    expect(deleted.status, deleted.text).toBe(204);
    expect(await sweepOrphanRows(portal.services.db)).toBeGreaterThan(0);
    expect((await kept()).rows).toEqual([]);
  });

  it('an entry made in a support session elsewhere reaches the streams of the supporter’s organization too, as its trail shows it', async () => {
    const made = await create(f.admin.client, f.tree.barn, { kind: 'datadog', url: `${collector.url}/dd/barn`, token: 'k-barn' });
    expect(made.id).toBeTruthy();
    // as modules/support writes it: the member acting in dealer-b, the supporter of dealer-a/north/farm-1/barn
    await insertAuditEntry(portal.services.db, {
      actorKind: 'support',
      actorId: null,
      actorUserId: f.mgrB.userId,
      actorEmail: f.mgrB.email,
      requestId: null,
      organizationId: f.tree.b.id,
      organizationPath: f.tree.b.path,
      action: 'organization.update',
      targetType: 'organization',
      targetId: f.tree.b.id,
      supporter: { userId: f.farmer.userId, email: f.farmer.email, name: 'Farmer', organizationPath: f.tree.barn.path },
    });
    await expect
      .poll(() => datadogLogs(collector, '/dd/barn', 'k-barn').map((e) => e.organization_id), { timeout: 15_000 })
      .toContain(f.tree.b.id);
  });

  it('rights: managers of the organization or an ancestor; a member without organizationManager, another subtree and a service account get 403', async () => {
    const url = `${collector.url}/rights`;
    expect((await f.plainA.client.post(base(f.tree.north), { kind: 'https', url })).status).toBe(403);
    expect((await f.plainA.client.get(base(f.tree.north))).status).toBe(403);
    expect((await f.mgrB.client.post(base(f.tree.north), { kind: 'https', url })).status).toBe(403);
    expect((await f.mgrNorth.client.get(base(f.tree.a))).status).toBe(403);
    expect((await f.mgrNorth.client.get(base(f.tree.north))).status).toBe(200);

    const account = await createAccount(f.fullA.client, f.tree.a.id, {
      name: 'Log shipper',
      user_manager: true,
      organization_manager: true,
    });
    const machine = new BearerClient(portal.url, await tokenOf(portal.url, account));
    for (const res of [await machine.post(base(f.tree.north), { kind: 'https', url }), await machine.get(base(f.tree.north))]) {
      expect(res.status, res.text).toBe(403);
      expect(keyOf(res)).toBe('service_account_not_allowed');
    }
  });

  it('bad input: 400 with the field’s error, never a 500; an unknown stream 404', async () => {
    const post = (body: unknown) => f.admin.client.post(base(f.tree.north), body);
    const kind = await post({ kind: 'syslog', url: 'https://logs.example.com/x' });
    expect(kind.status).toBe(400);
    expect(fieldKeys(kind.body)).toEqual({ kind: ['invalid_audit_stream_kind'] });
    const noToken = await post({ kind: 'splunk_hec', url: 'https://splunk.example.com/services/collector/event' });
    expect(noToken.status).toBe(400);
    expect(fieldKeys(noToken.body)).toEqual({ token: ['required_field'] });
    const ddNoToken = await post({ kind: 'datadog', url: 'https://http-intake.logs.datadoghq.eu/api/v2/logs', token: ' ' });
    expect(ddNoToken.status).toBe(400);
    expect(fieldKeys(ddNoToken.body)).toHaveProperty('token');
    for (const url of ['not a url', 'ftp://logs.example.com/', 'https://user:pw@logs.example.com/', 42]) {
      const res = await post({ kind: 'https', url });
      expect(res.status, String(url)).toBe(400);
      expect(fieldKeys(res.body)).toEqual({ url: ['invalid_webhook_url'] });
    }
    expect((await post('nonsense')).status).toBe(400);

    const made = await create(f.admin.client, f.tree.north, { kind: 'https', url: `${collector.url}/bad` });
    const replay = await f.admin.client.post(`${base(f.tree.north)}/${made.id}/replay`, { from: 'yesterday' });
    expect(replay.status).toBe(400);
    expect(fieldKeys(replay.body)).toEqual({ from: ['invalid_date_time'] });
    const token = await f.admin.client.patch(`${base(f.tree.north)}/${made.id}`, { token: 'no tokens for https' });
    expect(token.status).toBe(400);
    const paused = await f.admin.client.patch(`${base(f.tree.north)}/${made.id}`, { paused: 'yes' });
    expect(paused.status).toBe(400);
    const unknown = await f.admin.client.patch(`${base(f.tree.north)}/00000000-0000-4000-8000-000000000000`, { paused: true });
    expect(unknown.status).toBe(404);
    expect(keyOf(unknown)).toBe('unknown_audit_stream');
    // in another organization, a stream is unknown
    expect((await f.admin.client.delete(`${base(f.tree.b)}/${made.id}`)).status).toBe(404);
  });
});
