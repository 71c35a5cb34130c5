import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresAdapter } from '../../src/oidc/adapter.js';
import { sweepExpiredIdentityRows } from '../../src/modules/identity/queries.js';
import { startPortal, type TestPortal } from '../support/portal.js';

/** The provider's storage over oidc_payloads, and the clean-up job. */
let portal: TestPortal;

beforeAll(async () => (portal = await startPortal()));
afterAll(() => portal?.close());

describe('the oidc_payloads adapter', () => {
  it('stores, finds (by id, uid, user code), consumes, revokes by grant and destroys', async () => {
    const Adapter = postgresAdapter(portal.services.db);
    const tokens = new Adapter('AccessToken');
    await tokens.upsert('t1', { grantId: 'g1', accountId: 'a' }, 60);
    await tokens.upsert('t2', { grantId: 'g1', accountId: 'a' }, 60);
    await tokens.upsert('t3', { grantId: 'g2', accountId: 'a' }, 60);
    expect(await tokens.find('t1')).toMatchObject({ grantId: 'g1' });
    await tokens.consume('t1');
    expect((await tokens.find('t1'))!.consumed).toBeGreaterThan(0);
    await tokens.revokeByGrantId('g1');
    expect(await tokens.find('t1')).toBeUndefined();
    expect(await tokens.find('t2')).toBeUndefined();
    expect(await tokens.find('t3')).toBeDefined();
    await tokens.destroy('t3');
    expect(await tokens.find('t3')).toBeUndefined();

    const sessions = new Adapter('Session');
    await sessions.upsert('s1', { uid: 'u1', accountId: 'a' }, 60);
    expect(await sessions.findByUid('u1')).toMatchObject({ accountId: 'a' });
    const devices = new Adapter('DeviceCode');
    await devices.upsert('d1', { userCode: 'ABCD-EFGH' }, 60);
    expect(await devices.findByUserCode('ABCD-EFGH')).toBeDefined();
  });

  it('hides expired entries at once; the clean-up job deletes them with expired sessions', async () => {
    const Adapter = postgresAdapter(portal.services.db);
    const grants = new Adapter('Grant');
    await grants.upsert('old', { accountId: 'a' }, 60);
    await portal.services.db.query(`UPDATE oidc_payloads SET expires_at = now() - interval '1 second' WHERE id = 'old'`);
    expect(await grants.find('old')).toBeUndefined();
    await portal.services.sessions.create(portal.adminUserId, false);
    await portal.services.db.query(`UPDATE sessions SET expires_at = now() - interval '1 second'`);
    await sweepExpiredIdentityRows(portal.services.db);
    expect((await portal.services.db.query(`SELECT 1 FROM oidc_payloads WHERE id = 'old'`)).rows).toHaveLength(0);
    expect((await portal.services.db.query('SELECT 1 FROM sessions WHERE expires_at < now()')).rows).toHaveLength(0);
  });

  it('serves the catalogue clients from apps.oidc_metadata', async () => {
    const Adapter = postgresAdapter(portal.services.db);
    const clients = new Adapter('Client');
    expect(await clients.find('media-library')).toBeUndefined();
    await portal.services.db.query(
      `UPDATE apps SET oidc_metadata = '{"redirect_uris": ["https://media.example.com/cb"]}' WHERE client_id = 'media-library'`,
    );
    expect(await clients.find('media-library')).toEqual({ client_id: 'media-library', redirect_uris: ['https://media.example.com/cb'] });
  });
});
