import { afterAll, describe, expect, it } from 'vitest';
import { createFreshDatabase, testDatabaseUrl } from '../test/support/database.js';
import { freePort } from '../test/support/portal.js';
import { startReceiver } from '../test/webhooks/support.js';
import { api, login, spawnServer, sql, waitForHealth } from './support/server.js';

/**
 * An audit stream across a crash (docs/integrations.md, "Audit streams"): the built portal
 * (production, its receiver on 127.0.0.1 allowed by OUTBOUND_ALLOW_PRIVATE_NETWORKS=true) writes
 * 1,000 audit entries while the stream's receiver answers 500 (the stream's head is retried, the
 * rest waits behind it), and is killed with SIGKILL. After a restart, with the receiver answering
 * again, every entry arrives, signed, in the stream's order: at least once, so an entry may come
 * twice, but the order of first arrivals is the order of the entries.
 */
const base = testDatabaseUrl();
if (!base) throw new Error('the resilience suite needs PostgreSQL: set DATABASE_URL (or TEST_DATABASE_URL)');

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const ENTRIES = 1000;

describe('kill -9 while an audit stream’s receiver fails', () => {
  it('delivers every entry, in order, after a restart once the receiver answers', async () => {
    const database = await createFreshDatabase(base);
    cleanups.push(() => database.drop());
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    const port = await freePort();
    const env = {
      DATABASE_URL: database.url,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      RATE_LIMIT_MAX: '100000',
      RATE_LIMIT_SESSION_MAX: '100000',
      OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_RETRY_BASE_SECONDS: '1',
      WEBHOOK_TIMEOUT_SECONDS: '5',
    };
    const first = spawnServer(env);
    cleanups.push(() => first.stop());
    await waitForHealth(first.url, { server: first });
    const cookie = await login(first.url);
    const rootId = (await api(first.url, 'GET', '/api/identity/user-info', { cookie })).body.organizationId as string;
    const child = await api(first.url, 'POST', '/api/organizations', {
      cookie,
      body: { parent_organization_id: rootId, name: 'Audited', client_ids: [] },
    });
    expect(child.status, JSON.stringify(child.body)).toBe(201);
    const stream = await api(first.url, 'POST', `/api/organizations/${rootId}/audit-streams`, {
      cookie,
      body: { kind: 'https', url: `${receiver.url}/siem` },
    });
    expect(stream.status, JSON.stringify(stream.body)).toBe(201);
    let answering = false;
    receiver.hook('/siem', stream.body.secret as string, () => ({ status: answering ? 200 : 500 }));

    // 1,000 audited changes from 4 writers, every one acknowledged
    const childId = child.body.id as string;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let i = 0; i < ENTRIES / 4; i++) {
          const res = await api(
            first.url,
            'PATCH',
            `/api/organizations/${childId}/can-create-sub-organizations?canCreateSubOrganizations=false`,
            { cookie },
          );
          expect(res.status, JSON.stringify(res.body)).toBe(204);
        }
      }),
    );
    // the head was refused at least once: the stream is failing, nothing was taken
    const deadline = Date.now() + 10_000;
    while (receiver.received.filter((r) => r.path === '/siem').length === 0 && Date.now() < deadline) await sleep(50);
    expect(receiver.verified('/siem').length).toBeGreaterThan(0);
    await first.kill9();

    // the stream's order: its outbox rows by seq, each naming its entry
    const order = (
      await sql<{ entry_id: string }>(
        database.url,
        `SELECT payload->>'entry_id' AS entry_id FROM outbox WHERE kind = 'audit_stream' ORDER BY (payload->>'seq')::bigint`,
      )
    ).map((r) => r.entry_id);
    const changes = await sql<{ n: number }>(
      database.url,
      `SELECT count(*)::int AS n FROM audit_log WHERE action = 'organization.can_create_sub_organizations.update'`,
    );
    expect(changes).toEqual([{ n: ENTRIES }]);
    expect(order.length).toBeGreaterThanOrEqual(ENTRIES);
    const failing = await sql<{ failing: boolean; last_error: string }>(database.url, 'SELECT failing, last_error FROM audit_streams');
    expect(failing).toEqual([{ failing: true, last_error: 'answered 500' }]);

    answering = true;
    const second = spawnServer(env);
    cleanups.push(() => second.stop());
    await waitForHealth(second.url, { server: second });
    // what the receiver took: everything after the restart (answered 200), each entry by its id, in the order of its first arrival
    const takenFrom = receiver.received.length;
    const firstArrivals = () => [
      ...new Set(
        receiver.received
          .slice(takenFrom)
          .filter((r) => r.path === '/siem' && r.payload)
          .map((r) => String((r.payload as unknown as { data: { id: string } }).data.id)),
      ),
    ];
    const until = Date.now() + 90_000;
    while (firstArrivals().length < order.length && Date.now() < until) await sleep(200);
    expect(firstArrivals()).toEqual(order);
    const after = await sql<{ state: string; n: number }>(
      database.url,
      `SELECT state, count(*)::int AS n FROM outbox WHERE kind = 'audit_stream' GROUP BY state`,
    );
    expect(after).toEqual([{ state: 'delivered', n: order.length }]);
    const listed = await api(second.url, 'GET', `/api/organizations/${rootId}/audit-streams`, { cookie: await login(second.url) });
    expect(listed.body[0]).toMatchObject({ state: 'active', last_error: 'answered 500' });
    console.log(
      `audit streams, kill -9: ${ENTRIES} changes written while the receiver answered 500, all ${order.length} entries delivered in order after the restart`,
    );
    expect(second.errors()).toEqual([]);
  });
});
