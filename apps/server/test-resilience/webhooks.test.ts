import { afterAll, describe, expect, it } from 'vitest';
import { createFreshDatabase, testDatabaseUrl } from '../test/support/database.js';
import { freePort } from '../test/support/portal.js';
import { until } from '../test/support/wait.js';
import { startReceiver } from '../test/webhooks/support.js';
import { api, login, spawnServer, sql, waitForHealth } from './support/server.js';

/**
 * Webhooks across a crash (docs/integrations.md, "Webhooks"): the built portal (production, its
 * receiver on 127.0.0.1 allowed by OUTBOUND_ALLOW_PRIVATE_NETWORKS=true) is killed with SIGKILL
 * after a stream of acknowledged changes, while some of their deliveries are being sent (the
 * receiver does not answer them) and others have not been taken yet. After a restart every
 * acknowledged change's event arrives: the outbox row was committed with the change, and the row
 * locks of the deliveries in flight died with the killed process's connections.
 */
const base = testDatabaseUrl();
if (!base) throw new Error('the resilience suite needs PostgreSQL: set DATABASE_URL (or TEST_DATABASE_URL)');

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe('kill -9 between the change and the delivery', () => {
  it('delivers every acknowledged change’s event after a restart', async () => {
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
      WEBHOOK_TIMEOUT_SECONDS: '30',
    };
    const first = spawnServer(env);
    cleanups.push(() => first.stop());
    await waitForHealth(first.url, { server: first });
    const cookie = await login(first.url);
    const rootId = (await api(first.url, 'GET', '/api/identity/user-info', { cookie })).body.organizationId as string;
    const hook = await api(first.url, 'POST', `/api/organizations/${rootId}/webhooks`, {
      cookie,
      body: { url: `${receiver.url}/crash`, events: ['organization.created'] },
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    // until the crash nothing is answered: what the first portal sends stays in flight
    let answering = false;
    receiver.hook('/crash', hook.body.secret as string, () => (answering ? { status: 200 } : { delayMs: 10 * 60_000 }));

    // a stream of changes from 4 writers: what the sender takes first stays in flight, unanswered, and the
    // rest waits for it (one batch per webhook at a time), taken by nobody
    const acknowledged = new Set<string>();
    await Promise.all(
      Array.from({ length: 4 }, async (_, w) => {
        for (let i = 0; i < 30; i++) {
          const res = await api(first.url, 'POST', '/api/organizations', {
            cookie,
            body: { parent_organization_id: rootId, name: `Crash ${w} ${i}`, client_ids: [] },
          });
          expect(res.status, JSON.stringify(res.body)).toBe(201);
          acknowledged.add(res.body.id as string);
        }
      }),
    );
    // the sender has some in flight
    await until('a delivery in flight', () => receiver.verified('/crash').length > 0, 10_000).catch(() => undefined);
    expect(receiver.verified('/crash').length).toBeGreaterThan(0);
    await first.kill9();

    const before = await sql<{ attempts: number; state: string; n: number }>(
      database.url,
      "SELECT attempts, state, count(*)::int AS n FROM outbox WHERE kind = 'webhook' GROUP BY attempts, state",
    );
    // nothing was answered, so nothing was recorded: all pending, some sent (in flight) and some never taken
    expect(before).toEqual([{ attempts: 0, state: 'pending', n: acknowledged.size }]);
    const inFlight = new Set(receiver.verified('/crash').map((r) => r.headers['webhook-id']));
    expect(inFlight.size).toBeLessThan(acknowledged.size);

    answering = true;
    const second = spawnServer(env);
    cleanups.push(() => second.stop());
    await waitForHealth(second.url, { server: second });
    const arrived = async () => new Set(receiver.verified('/crash').map((r) => r.payload!.data.organization_id));
    await until('every event arrived', async () => (await arrived()).size >= acknowledged.size, 60_000, 100).catch(() => undefined);
    const got = await arrived();
    expect(
      [...acknowledged].filter((id) => !got.has(id)),
      'events of acknowledged changes that never arrived',
    ).toEqual([]);
    // every outcome written: nothing in flight that could still come twice
    await until(
      'no delivery pending',
      async () =>
        (await sql<{ n: number }>(database.url, `SELECT count(*)::int AS n FROM outbox WHERE kind = 'webhook' AND state = 'pending'`))[0]!
          .n === 0,
      30_000,
    ).catch(() => undefined);
    const after = await sql<{ state: string; n: number }>(
      database.url,
      "SELECT state, count(*)::int AS n FROM outbox WHERE kind = 'webhook' GROUP BY state",
    );
    expect(after).toEqual([{ state: 'delivered', n: acknowledged.size }]);
    // at least once: a message in flight at the crash came again with its webhook-id, none other twice
    const ids = receiver.verified('/crash').map((r) => r.headers['webhook-id'] as string);
    const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
    expect(repeated.filter((id) => !inFlight.has(id))).toEqual([]);
    console.log(
      `webhooks, kill -9: ${acknowledged.size} changes acknowledged, ${inFlight.size} deliveries in flight at the crash, all ${got.size} delivered after the restart`,
    );
    expect(second.errors()).toEqual([]);
  });
});
