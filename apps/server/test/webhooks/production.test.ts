import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortal, type TestPortal } from '../support/portal.js';
import type { HttpClient } from '../support/http.js';
import type { WebhookWorker } from '../../src/modules/webhooks/worker.js';
import { startReceiver, startWorker, type Receiver } from './support.js';

/**
 * Webhooks with NODE_ENV=production (docs/integrations.md, "Webhooks"): an address in a private
 * network is refused when the webhook is made or changed, and again when a delivery connects (a
 * name may point somewhere else later); OUTBOUND_ALLOW_PRIVATE_NETWORKS=true lets both through.
 */
let receiver: Receiver;
beforeAll(async () => (receiver = await startReceiver()));
afterAll(() => receiver?.close());

const hooksOf = (portal: TestPortal) => `/api/organizations/${portal.rootOrganizationId}/webhooks`;

/** A change that every webhook of the root hears: a new sub-organization. */
async function makeOrganization(portal: TestPortal, admin: HttpClient, name: string): Promise<void> {
  const res = await admin.post('/api/organizations', {
    parent_organization_id: portal.rootOrganizationId,
    name,
    client_ids: [],
    can_create_sub_organization: false,
  });
  expect(res.status, res.text).toBe(201);
}

describe('webhooks in production', () => {
  let portal: TestPortal;
  let worker: WebhookWorker;
  beforeAll(async () => {
    portal = await startPortal({ NODE_ENV: 'production', WEBHOOK_RETRY_BASE_SECONDS: '1', WEBHOOK_TIMEOUT_SECONDS: '2' });
    worker = await startWorker(portal);
  });
  afterAll(async () => {
    await worker?.stop();
    await portal?.close();
  });

  it('refuses a private address when a delivery connects, though it was public when the webhook was made', async () => {
    const admin = await portal.sessionFor(portal.adminUserId);
    const made = await admin.post(hooksOf(portal), { url: 'https://hooks.example.com/later-private', events: ['*'] });
    expect(made.status, made.text).toBe(201);
    // the change of a name's address, as the portal meets it: the stored URL now reaches loopback
    await portal.services.db.query('UPDATE webhooks SET url = $1 WHERE id = $2', [`${receiver.url}/later-private`, made.body.id]);
    receiver.hook('/later-private', made.body.secret);
    const refused = await admin.patch(`${hooksOf(portal)}/${made.body.id}`, { url: `${receiver.url}/changed` });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toMatchObject({ url: [{ translation_key: 'webhook_url_not_allowed' }] });

    await makeOrganization(portal, admin, 'Refused Delivery');
    const attempts = async (): Promise<{ status: number | null; error: string | null }[]> =>
      (await admin.get(`${hooksOf(portal)}/${made.body.id}/deliveries`)).body.deliveries[0]?.attempts ?? [];
    await expect.poll(async () => (await attempts()).length, { timeout: 5_000 }).toBeGreaterThan(0);
    expect((await attempts())[0]).toMatchObject({ status: null, error: expect.any(String) });
    expect(receiver.received.filter((r) => r.path === '/later-private')).toEqual([]);
  });
});

describe('webhooks in production with OUTBOUND_ALLOW_PRIVATE_NETWORKS=true', () => {
  it('takes a private address and delivers to it', async () => {
    const portal = await startPortal({ NODE_ENV: 'production', OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' });
    const worker = await startWorker(portal);
    try {
      const admin = await portal.sessionFor(portal.adminUserId);
      const made = await admin.post(hooksOf(portal), { url: `${receiver.url}/allowed`, events: ['organization.created'] });
      expect(made.status, made.text).toBe(201);
      receiver.hook('/allowed', made.body.secret);
      await makeOrganization(portal, admin, 'Allowed Delivery');
      const [got] = await receiver.waitFor('/allowed', 1);
      expect(got!.payload).toMatchObject({ type: 'organization.created', data: { name: 'Allowed Delivery' } });
    } finally {
      await worker.stop();
      await portal.close();
    }
  });
});
