import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortal, startPortalWith, type TestPortal } from '../support/portal.js';
import { buildFixture, type Fixture } from '../organizations/fixtures.js';

/**
 * Webhook subscriptions (docs/integrations.md, "Webhooks"): made, listed, changed and deleted by
 * organizationManagers of the organization or an ancestor; the secret shown once and kept sealed;
 * unknown events, bad URLs and (in production) private addresses refused with translated keys.
 */
let portal: TestPortal;
let f: Fixture;
beforeAll(async () => ({ portal, built: f } = await startPortalWith(buildFixture)));
afterAll(() => portal?.close());

const hooksOf = (orgId: string) => `/api/organizations/${orgId}/webhooks`;
const fieldKeys = (body: any) =>
  Object.fromEntries(Object.entries(body.errors ?? {}).map(([field, list]) => [field, (list as any[]).map((e) => e.translation_key)]));

describe('webhook subscriptions', () => {
  it('an organizationManager subscribes, lists, changes and deletes; the secret is shown once and kept sealed', async () => {
    const made = await f.orgMgrA.client.post(hooksOf(f.tree.a.id), {
      url: 'https://hooks.example.com/partner-portal',
      events: ['member.created', 'organization.created', 'member.created'],
      description: '  CRM  ',
    });
    expect(made.status, made.text).toBe(201);
    expect(Object.keys(made.body).sort()).toEqual(['id', 'secret']);
    expect(made.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    const listed = await f.orgMgrA.client.get(hooksOf(f.tree.a.id));
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      {
        id: made.body.id,
        organization_id: f.tree.a.id,
        url: 'https://hooks.example.com/partner-portal',
        events: ['member.created', 'organization.created'],
        description: 'CRM',
        // a person's: no service account owns it (people-only.test.ts: a service account's)
        service_account_id: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    ]);
    expect(listed.text).not.toContain('whsec_');

    // sealed at rest (a compact JWE), never in the audit log
    const { rows } = await portal.services.db.query<{ secret_sealed: string }>('SELECT secret_sealed FROM webhooks WHERE id = $1', [
      made.body.id,
    ]);
    expect(rows[0]!.secret_sealed.split('.')).toHaveLength(5);
    expect(rows[0]!.secret_sealed).not.toContain(made.body.secret.slice(6, 20));
    const audit = await portal.services.db.query<{ action: string; after: unknown }>(
      "SELECT action, after FROM audit_log WHERE target_type = 'webhook' AND target_id = $1 ORDER BY id",
      [made.body.id],
    );
    expect(audit.rows.map((r) => r.action)).toEqual(['webhook.create']);
    expect(JSON.stringify(audit.rows)).not.toContain('whsec_');

    // an ancestor's manager (the provider's administrator) sees and changes it too
    const changed = await f.admin.client.patch(`${hooksOf(f.tree.a.id)}/${made.body.id}`, { events: ['*'], description: null });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({
      id: made.body.id,
      events: ['*'],
      description: null,
      url: 'https://hooks.example.com/partner-portal',
    });

    // not another organization's: 404 through the wrong organization
    expect((await f.admin.client.delete(`${hooksOf(f.tree.b.id)}/${made.body.id}`)).status).toBe(404);
    const deleted = await f.orgMgrA.client.delete(`${hooksOf(f.tree.a.id)}/${made.body.id}`);
    expect(deleted.status).toBe(204);
    expect((await f.orgMgrA.client.get(hooksOf(f.tree.a.id))).body).toEqual([]);
    const actions = await portal.services.db.query<{ action: string }>(
      "SELECT action FROM audit_log WHERE target_type = 'webhook' AND target_id = $1 ORDER BY id",
      [made.body.id],
    );
    expect(actions.rows.map((r) => r.action)).toEqual(['webhook.create', 'webhook.update', 'webhook.delete']);
    const again = await f.orgMgrA.client.delete(`${hooksOf(f.tree.a.id)}/${made.body.id}`);
    expect(again.status).toBe(404);
    expect(again.body.i18NTranslationKey).toBe('unknown_webhook');
  });

  it('refuses unknown events and addresses that are not http(s) with translated keys, and changes nothing', async () => {
    const post = (body: unknown) => f.orgMgrA.client.post(hooksOf(f.tree.a.id), body);
    const unknown = await post({ url: 'https://hooks.example.com/x', events: ['member.created', 'member.exploded'] });
    expect(unknown.status).toBe(400);
    expect(fieldKeys(unknown.body)).toEqual({ 'events.1': ['unknown_webhook_event'] });
    expect((await post({ url: 'https://hooks.example.com/x', events: ['*', 'member.created'] })).status).toBe(400);
    expect(fieldKeys((await post({ url: 'https://hooks.example.com/x', events: [] })).body)).toEqual({ events: ['required_field'] });
    expect(fieldKeys((await post({ url: 'https://hooks.example.com/x', events: 'member.created' })).body)).toEqual({
      events: ['required_field'],
    });
    for (const url of [
      'ftp://hooks.example.com/x',
      'hooks.example.com/x',
      'https://user:pw@hooks.example.com/',
      'https://h.example/#x',
      7,
    ]) {
      const res = await post({ url, events: ['*'] });
      expect(res.status, String(url)).toBe(400);
      expect(fieldKeys(res.body), String(url)).toEqual({ url: ['invalid_webhook_url'] });
    }
    const made = await post({ url: 'http://hooks.example.com/x', events: ['*'] });
    expect(made.status).toBe(201);
    const patched = await f.orgMgrA.client.patch(`${hooksOf(f.tree.a.id)}/${made.body.id}`, { events: ['nope'] });
    expect(patched.status).toBe(400);
    expect(fieldKeys(patched.body)).toEqual({ 'events.0': ['unknown_webhook_event'] });
    expect((await f.orgMgrA.client.get(hooksOf(f.tree.a.id))).body[0].events).toEqual(['*']);
    expect((await f.orgMgrA.client.delete(`${hooksOf(f.tree.a.id)}/${made.body.id}`)).status).toBe(204);
  });

  it('is for organizationManagers of the organization or an ancestor only', async () => {
    const body = { url: 'https://hooks.example.com/y', events: ['*'] };
    expect((await f.plainA.client.post(hooksOf(f.tree.a.id), body)).status).toBe(403);
    expect((await f.userMgrA.client.post(hooksOf(f.tree.a.id), body)).status).toBe(403);
    expect((await f.userMgrA.client.get(hooksOf(f.tree.a.id))).status).toBe(403);
    // a sibling's manager, and a descendant's manager upward
    expect((await f.mgrB.client.post(hooksOf(f.tree.a.id), body)).status).toBe(403);
    expect((await f.mgrNorth.client.get(hooksOf(f.tree.a.id))).status).toBe(403);
    expect((await portal.client().get(hooksOf(f.tree.a.id))).status).toBe(401);
    // the manager of north subscribes its own organization
    const own = await f.mgrNorth.client.post(hooksOf(f.tree.north.id), body);
    expect(own.status).toBe(201);
    expect((await f.mgrB.client.get(`${hooksOf(f.tree.north.id)}/${own.body.id}/deliveries`)).status).toBe(403);
    expect((await portal.services.db.query('SELECT 1 FROM webhooks WHERE organization_id = $1', [f.tree.a.id])).rowCount).toBe(0);
  });
});

describe('webhook subscriptions in production', () => {
  it('refuses an address in a private network (webhook_url_not_allowed)', async () => {
    const production = await startPortal({ NODE_ENV: 'production' });
    try {
      const admin = await production.sessionFor(production.adminUserId);
      for (const url of [
        'http://127.0.0.1:8080/hook',
        'http://[::1]/hook',
        'http://10.1.2.3/hook',
        'http://169.254.169.254/',
        'http://localhost/x',
      ]) {
        const res = await admin.post(hooksOf(production.rootOrganizationId), { url, events: ['*'] });
        expect(res.status, url).toBe(400);
        expect(fieldKeys(res.body), url).toEqual({ url: ['webhook_url_not_allowed'] });
      }
      expect((await production.services.db.query('SELECT 1 FROM webhooks')).rowCount).toBe(0);
    } finally {
      await production.close();
    }
  });
});
