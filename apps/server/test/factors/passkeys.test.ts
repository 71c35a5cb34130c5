import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPasskey } from '../../src/modules/factors/passkey-queries.js';
import { startPortal, type TestPortal } from '../support/portal.js';
import { createUser } from '../identity/support.js';
import { passwordSteps } from './support.js';

/**
 * Passkeys over HTTP (the browser's part is in e2e/tests/passkeys.test.ts, with the DevTools
 * virtual authenticator): renaming one, and who may ask for the creation options of a new one —
 * the signed-in user, or a sign-in that must set up a factor before its session starts.
 */
let portal: TestPortal;

beforeAll(async () => (portal = await startPortal({}, { publicHost: 'localhost' })));
afterAll(() => portal?.close());

/** A passkey row as a registration leaves it (the credential itself is not used here). */
const storedPasskey = (userId: string, name: string) =>
  insertPasskey(portal.services.db, {
    userId,
    credentialId: randomBytes(16).toString('base64url'),
    publicKey: randomBytes(77),
    counter: 0,
    transports: ['internal'],
    deviceType: 'singleDevice',
    backedUp: false,
    name,
  });

describe('renaming a passkey', () => {
  it('renames one of one’s own passkeys (trimmed); the list shows the new name and when it was last used', async () => {
    const user = await createUser(portal);
    const client = await portal.sessionFor(user.id);
    const id = await storedPasskey(user.id, 'Passkey 1');
    // an old session may rename: a name is no change to how one signs in
    await portal.services.db.query("UPDATE sessions SET authenticated_at = now() - interval '1 hour' WHERE user_id = $1", [user.id]);
    const renamed = await client.patch(`/api/factors/passkeys/${id}`, { name: '  Work laptop  ' });
    expect(renamed.status, renamed.text).toBe(204);
    const factors = await client.get('/api/factors');
    expect(factors.body.passkeys).toEqual([expect.objectContaining({ id, name: 'Work laptop', last_used_at: null })]);
  });

  it('refuses an empty or too long name (400, translated), another user’s passkey (404), a bad id (400), no session (401)', async () => {
    const user = await createUser(portal);
    const other = await createUser(portal);
    const client = await portal.sessionFor(user.id);
    const own = await storedPasskey(user.id, 'Mine');
    const theirs = await storedPasskey(other.id, 'Theirs');

    const empty = await client.patch(`/api/factors/passkeys/${own}`, { name: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.body.i18NTranslationKey).toBe('validation_failed');
    expect(JSON.stringify(empty.body)).toContain('required_field');
    expect((await client.patch(`/api/factors/passkeys/${own}`, { name: 'x'.repeat(101) })).status).toBe(400);
    expect((await client.patch(`/api/factors/passkeys/${own}`, {})).status).toBe(400);
    const foreign = await client.patch(`/api/factors/passkeys/${theirs}`, { name: 'Stolen' });
    expect(foreign.status).toBe(404);
    expect((await client.patch('/api/factors/passkeys/not-a-uuid', { name: 'x' })).status).toBe(400);
    expect((await portal.client().patch(`/api/factors/passkeys/${own}`, { name: 'x' })).status).toBe(401);
    const { rows } = await portal.services.db.query<{ name: string }>('SELECT name FROM passkeys WHERE id = ANY($1) ORDER BY name', [
      [own, theirs],
    ]);
    expect(rows.map((r) => r.name)).toEqual(['Mine', 'Theirs']);
  });
});

describe('the creation options of a new passkey', () => {
  it('are given to a sign-in that must set up a factor, with no session before; not to one that only needs its second step', async () => {
    const user = await createUser(portal);
    await portal.services.db.query(
      'INSERT INTO second_factor_policies (organization_id) SELECT organization_id FROM memberships WHERE user_id = $1',
      [user.id],
    );
    const client = portal.client();
    expect((await passwordSteps(client, user.email, user.password)).next_step).toBe('enrol_second_factor');
    const options = await client.post('/api/factors/passkeys/registration-options');
    expect(options.status, options.text).toBe(200);
    expect(options.body).toMatchObject({ rp: { id: 'localhost' }, user: { name: user.email } });
    expect((await client.get('/api/identity/user-info')).status).toBe(401);
    // an answer that is no passkey starts nothing
    const bogus = await client.post('/api/factors/passkeys', { name: 'x', response: { id: 'nope' } });
    expect(bogus.status).toBe(400);
    expect(bogus.body.i18NTranslationKey).toBe('passkey_not_verified');
    expect((await client.get('/api/identity/user-info')).status).toBe(401);

    // an account that already has a factor gets its second step, which sets up nothing
    const withFactor = await createUser(portal);
    await storedPasskey(withFactor.id, 'Key');
    const second = portal.client();
    expect((await passwordSteps(second, withFactor.email, withFactor.password)).next_step).toBe('second_factor');
    expect((await second.post('/api/factors/passkeys/registration-options')).status).toBe(401);
    expect((await portal.client().post('/api/factors/passkeys/registration-options')).status).toBe(401);
  });
});
