import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, seedDemo } from '../../src/cli/seed-demo.js';
import { startPortal, type TestPortal } from '../support/portal.js';

let portal: TestPortal;

beforeAll(async () => (portal = await startPortal()));
afterAll(() => portal?.close());

describe('seed:demo', () => {
  it('fills a realistic tree with members and pending, accepted and revoked invitations, idempotently', async () => {
    const first = await seedDemo(portal.services.db, portal.config);
    expect(first.links).toHaveLength(3);
    const states = await portal.services.db.query<{ state: string; n: number }>(
      'SELECT state, count(*)::int AS n FROM invitations GROUP BY state ORDER BY state',
    );
    expect(states.rows).toEqual([
      { state: 'ACCEPTED', n: 2 },
      { state: 'PENDING', n: 3 },
      { state: 'REVOKED', n: 2 },
    ]);
    const depth = await portal.services.db.query<{ d: number }>('SELECT max(depth)::int AS d FROM organizations');
    expect(depth.rows[0]!.d).toBe(3);
    const again = await seedDemo(portal.services.db, portal.config);
    expect(again.created).toEqual([]);
    expect((await portal.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM organizations')).rows[0]!.n).toBe(8);
    // a demo member can read a pending invitation link and sign in with the demo password
    const link = new URL(first.links[0]!.split(': ')[1]!);
    const read = await portal.client().get(`/api/invitations/${link.pathname.split('/').pop()}${link.search}`);
    expect(read.status).toBe(200);
    expect(read.body.invitation_state).toBe('PENDING');
    const login = await portal.client().post('/api/identity/login', { email: 'lisa.bakker@dealer-noord.example', password: DEMO_PASSWORD });
    expect([200, 204]).toContain(login.status);
  });
});
