import { decodeProtectedHeader } from 'jose';
import * as oidcClient from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rotateSigningKey } from '../../src/oidc/keys.js';
import { startPortal, type TestPortal } from '../support/portal.js';
import { codeFlow, DCR_TOKEN, discover, REDIRECT, registerClient } from './support.js';

/** Signing keys: made at first start, kept encrypted, rotated without a restart or a failed verification. */
let portal: TestPortal;
let config: oidcClient.Configuration;

beforeAll(async () => {
  portal = await startPortal({ DCR_INITIAL_ACCESS_TOKEN: DCR_TOKEN });
  config = await discover(portal, (await registerClient(portal)).client_id);
});
afterAll(() => portal?.close());

async function idToken(): Promise<string> {
  const browser = await portal.sessionFor(portal.adminUserId);
  const tokens = await codeFlow(config, browser, REDIRECT);
  return tokens.id_token!;
}

const jwksKids = async () => ((await portal.client().get('/connect/jwks')).body.keys as { kid: string }[]).map((k) => k.kid);

describe('signing key rotation', () => {
  it('publishes a new key before it signs, then signs with it while the old key stays published', async () => {
    const first = decodeProtectedHeader(await idToken()).kid!;
    expect(await jwksKids()).toEqual([first]);

    const next = await rotateSigningKey(portal.services.db, portal.services.secrets.keyEncryption, 3600);
    await portal.app.oidc.reloadKeys();
    expect(await jwksKids()).toEqual([first, next]);
    expect(decodeProtectedHeader(await idToken()).kid).toBe(first);

    // the activation time comes (the first key made at start may be younger than a second on a fast run: date it back)
    await portal.services.db.query(`UPDATE oidc_signing_keys SET activated_at = now() - interval '1 hour' WHERE kid = $1`, [first]);
    await portal.services.db.query(`UPDATE oidc_signing_keys SET activated_at = now() - interval '1 second' WHERE kid = $1`, [next]);
    await portal.app.oidc.reloadKeys();
    expect(await jwksKids()).toEqual([next, first]);
    const token = await idToken();
    expect(decodeProtectedHeader(token).kid).toBe(next);

    // long after, the old key is retired and no longer published
    await portal.services.db.query(`UPDATE oidc_signing_keys SET activated_at = now() - interval '3 days' WHERE kid = $1`, [first]);
    await portal.services.db.query(`UPDATE oidc_signing_keys SET activated_at = now() - interval '2 days' WHERE kid = $1`, [next]);
    await portal.app.oidc.reloadKeys();
    const { rows } = await portal.services.db.query<{ retired: boolean }>(
      'SELECT retired_at IS NOT NULL AS retired FROM oidc_signing_keys WHERE kid = $1',
      [first],
    );
    expect(rows[0]!.retired).toBe(true);
    expect(await jwksKids()).toEqual([next]);
  });
});
