import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { closeServices, createLogger, createServices } from '../../src/main.js';
import { recordEvent } from '../../src/modules/webhooks/outbox.js';
import type { WebhookWorker } from '../../src/modules/webhooks/worker.js';
import type { Services } from '../../src/services.js';
import { needsPostgres } from '../support/needs.js';
import { startPortal, type TestPortal } from '../support/portal.js';
import { deliveriesSettled, startReceiver, startWorker, type Receiver } from './support.js';

/**
 * Two portals on one PostgreSQL database share the deliveries (FOR UPDATE SKIP LOCKED): when every
 * answer is a 200 in time, each delivery is sent exactly once, by one of them.
 */
needsPostgres('webhook deliveries from two instances on one database', () => {
  let portal: TestPortal;
  let second: Services;
  let receiver: Receiver;
  const workers: WebhookWorker[] = [];

  beforeAll(async () => {
    portal = await startPortal();
    const c = portal.config;
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: c.DATABASE_URL!,
      DATABASE_POOL_SIZE: '5',
      PUBLIC_URL: c.PUBLIC_URL!,
    });
    second = await createServices(config, createLogger(config));
    receiver = await startReceiver();
    workers.push(await startWorker(portal), await startWorker(second));
  });
  afterAll(async () => {
    for (const w of workers) await w.stop();
    await receiver?.close();
    if (second) await closeServices(second);
    await portal?.close();
  });

  it('sends each delivery once, the work shared by both', async () => {
    const admin = await portal.sessionFor(portal.adminUserId);
    const made = await admin.post(`/api/organizations/${portal.rootOrganizationId}/webhooks`, {
      url: `${receiver.url}/shared`,
      events: ['*'],
    });
    expect(made.status).toBe(201);
    // answers take a little while, so that batches of both instances are in flight at once
    receiver.hook('/shared', made.body.secret, () => ({ status: 200, delayMs: 20 }));
    const root = (
      await portal.services.db.query<{ id: string; path: string }>('SELECT id, path FROM organizations WHERE id = $1', [
        portal.rootOrganizationId,
      ])
    ).rows[0]!;
    const EVENTS = 400;
    // from both instances, in transactions of 50 events
    for (let batch = 0; batch < EVENTS / 50; batch++) {
      const db = batch % 2 === 0 ? portal.services.db : second.db;
      await db.transaction(async (tx) => {
        for (let i = 0; i < 50; i++) {
          await recordEvent(tx, {
            type: 'organization.updated',
            organization: root,
            data: { name: `${batch}-${i}`, path: root.path, parent_id: null, changed: ['name'] },
          });
        }
      });
    }
    await receiver.waitFor('/shared', EVENTS, 60_000);
    // every outcome written: no delivery in flight that could still come twice
    await deliveriesSettled(portal, 30_000);
    const ids = receiver.verified('/shared').map((r) => r.headers['webhook-id'] as string);
    expect(ids).toHaveLength(EVENTS);
    expect(new Set(ids).size).toBe(EVENTS);
    expect(new Set(receiver.verified('/shared').map((r) => (r.payload!.data as { name: string }).name)).size).toBe(EVENTS);
    const [a, b] = workers.map((w) => w.stats.delivered);
    expect(a! + b!).toBe(EVENTS);
    expect(a, 'the first instance sent some').toBeGreaterThan(0);
    expect(b, 'the second instance sent some').toBeGreaterThan(0);
    const { rows } = await portal.services.db.query<{ state: string; attempts: number; n: number }>(
      "SELECT state, attempts, count(*)::int AS n FROM outbox WHERE kind = 'webhook' GROUP BY state, attempts",
    );
    expect(rows).toEqual([{ state: 'delivered', attempts: 1, n: EVENTS }]);
  });
});
