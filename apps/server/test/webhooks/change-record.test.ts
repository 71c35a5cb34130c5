import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_ACTOR } from '../../src/http/actor.js';
import { organizationChange } from '../../src/modules/audit/service.js';
import { recordChange, type ChangeEvent } from '../../src/modules/webhooks/changes.js';
import { startPortal, type TestPortal } from '../support/portal.js';

/**
 * The one record of a change (modules/webhooks/changes.ts): recordChange writes the audit entry and
 * the change's webhook events in the change's transaction, so both are there once it commits and
 * neither when it rolls back.
 */
let portal: TestPortal;
let root: { id: string; path: string };

beforeAll(async () => {
  portal = await startPortal();
  const admin = await portal.sessionFor(portal.adminUserId);
  // a subscription of the root organization that hears every event (no worker runs: its deliveries stay pending)
  const made = await admin.post(`/api/organizations/${portal.rootOrganizationId}/webhooks`, {
    url: 'https://hooks.example.com/change-record',
    events: ['*'],
  });
  expect(made.status, made.text).toBe(201);
  root = (
    await portal.services.db.query<{ id: string; path: string }>('SELECT id, path FROM organizations WHERE id = $1', [
      portal.rootOrganizationId,
    ])
  ).rows[0]!;
});
afterAll(() => portal?.close());

/** An organization.updated event named `name`, and the audit entry it goes with. */
const changeNamed = (name: string) => {
  const event: ChangeEvent = {
    type: 'organization.updated',
    organization: root,
    data: { name, path: root.path, parent_id: null, changed: ['name'] },
  };
  return { ...organizationChange(root, 'organization.update', undefined, { name }), events: [event] };
};

async function rowsOf(name: string) {
  const { db } = portal.services;
  const audit = await db.query<{ action: string; actor_kind: string }>(
    "SELECT action, actor_kind FROM audit_log WHERE organization_id = $1 AND after->>'name' = $2",
    [root.id, name],
  );
  const events = await db.query<{ event_type: string; payload: string }>(
    `SELECT payload->>'event_type' AS event_type, payload->>'body' AS payload FROM outbox
     WHERE kind = 'webhook' AND payload->>'organization_id' = $1 AND (payload->>'body')::jsonb->'data'->>'name' = $2`,
    [root.id, name],
  );
  return { audit: audit.rows, events: events.rows.map((r) => ({ type: r.event_type, body: JSON.parse(r.payload) })) };
}

describe('recordChange', () => {
  it('writes the audit entry and the event row with the change when its transaction commits', async () => {
    await portal.services.db.transaction((tx) => recordChange(tx, JOB_ACTOR, changeNamed('committed')));
    const { audit, events } = await rowsOf('committed');
    expect(audit).toEqual([{ action: 'organization.update', actor_kind: 'job' }]);
    expect(events).toHaveLength(1);
    expect(events[0]!.type).toBe('organization.updated');
    expect(events[0]!.body).toMatchObject({
      type: 'organization.updated',
      data: { name: 'committed', path: root.path, parent_id: null, changed: ['name'], organization_id: root.id },
    });
  });

  it('writes neither when the change rolls back', async () => {
    const failed = portal.services.db.transaction(async (tx) => {
      await recordChange(tx, JOB_ACTOR, changeNamed('rolled-back'));
      throw new Error('the change fails after it was recorded');
    });
    await expect(failed).rejects.toThrow('the change fails after it was recorded');
    expect(await rowsOf('rolled-back')).toEqual({ audit: [], events: [] });
  });

  it('writes only the events of a change the audit log does not keep (audited: false)', async () => {
    const { events } = changeNamed('unaudited');
    await portal.services.db.transaction((tx) => recordChange(tx, JOB_ACTOR, { audited: false, events }));
    const rows = await rowsOf('unaudited');
    expect(rows.audit).toEqual([]);
    expect(rows.events.map((e) => e.type)).toEqual(['organization.updated']);
  });
});
