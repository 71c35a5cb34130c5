import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortalWith, type TestPortal } from '../support/portal.js';
import { buildFixture, type Fixture } from '../organizations/fixtures.js';
import { Directory, ERROR_SCHEMA, makeToken } from './support.js';

/**
 * A directory is a credential like a session or a service account (http/credentials.ts): the
 * general limit counts its requests against its token (RATE_LIMIT_DIRECTORY_MAX), answered as a
 * SCIM error with Retry-After, while another directory and the people still work.
 */
const PER_DIRECTORY = 5;
let portal: TestPortal;
let f: Fixture;
beforeAll(async () => ({ portal, built: f } = await startPortalWith(buildFixture, { RATE_LIMIT_DIRECTORY_MAX: String(PER_DIRECTORY) })));
afterAll(() => portal?.close());

describe('the general limit of a directory', () => {
  it('counts per SCIM token: 429 as a SCIM error with Retry-After for one, while another token and the people still work', async () => {
    const busy = new Directory(portal, (await makeToken(f.userMgrA.client, f.tree.a.id, 'Busy')).token);
    const quiet = new Directory(portal, (await makeToken(f.userMgrA.client, f.tree.a.id, 'Quiet')).token);
    const statuses: number[] = [];
    for (let i = 0; i < PER_DIRECTORY + 2; i++) statuses.push((await busy.get('/Users?count=1')).status);
    expect(statuses.slice(0, PER_DIRECTORY)).toEqual(Array(PER_DIRECTORY).fill(200));
    expect(statuses.slice(PER_DIRECTORY)).toEqual([429, 429]);

    const limited = await busy.get('/Users?count=1');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('content-type')).toContain('application/scim+json');
    expect(limited.body).toMatchObject({ schemas: [ERROR_SCHEMA], status: '429' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    expect((await quiet.get('/Users?count=1')).status).toBe(200);
    expect((await f.userMgrA.client.get(`/api/organizations/${f.tree.a.id}`)).status).toBe(200);
  });
});
