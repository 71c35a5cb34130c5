import { decodeJwt } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { codeFlow, discover } from '../test/oidc/support.js';
import { createFreshDatabase, testDatabaseUrl } from '../test/support/database.js';
import { HttpClient } from '../test/support/http.js';
import { startLogoutReceiver } from '../test/support/logout-receiver.js';
import { freePort, type TestPortal } from '../test/support/portal.js';
import { until as waitUntil } from '../test/support/wait.js';
import { ADMIN_PASSWORD, api, login, spawnServer, sql, waitForHealth } from './support/server.js';

/**
 * Back-channel logout through the outbox (docs/decisions/024-mail-outbox.md), on the built portal
 * (production): a relying party signed in through the portal is down (503) when the session ends
 * (a password change ends every client's grant, in one transaction with its logout token). The
 * portal records the refusal and the next attempt's time (WEBHOOK_RETRY_BASE_SECONDS=0.2), is
 * killed with SIGKILL while it waits, and a second start sends the logout token once the relying party is up again:
 * it arrives once.
 */
const base = testDatabaseUrl();
if (!base) throw new Error('the resilience suite needs PostgreSQL: set DATABASE_URL (or TEST_DATABASE_URL)');

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

const until = (what: string, check: () => boolean | Promise<boolean>) => waitUntil(what, check, 30_000, 50);

const REDIRECT = 'http://127.0.0.1:8125/callback';
const SECRET = 'loyalty-secret-loyalty-secret-456';

describe('a relying party down when the session ends, and the portal killed meanwhile', () => {
  it('gets the logout token once, from a second start, when it is up again', async () => {
    const database = await createFreshDatabase(base);
    cleanups.push(() => database.drop());
    const receiver = await startLogoutReceiver();
    cleanups.push(() => receiver.close());
    const port = await freePort();
    const env = {
      DATABASE_URL: database.url,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      WEBHOOK_RETRY_BASE_SECONDS: '0.2',
      // the relying party listens on 127.0.0.1
      OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
    };
    const first = spawnServer(env);
    cleanups.push(() => first.stop());
    await waitForHealth(first.url, { server: first });
    await sql(database.url, `UPDATE apps SET oidc_metadata = $1 WHERE client_id = 'loyalty-app'`, [
      JSON.stringify({
        client_secret: SECRET,
        client_name: 'Loyalty',
        redirect_uris: [REDIRECT],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
        backchannel_logout_uri: `${receiver.url}/backchannel`,
        backchannel_logout_session_required: true,
      }),
    ]);

    // the administrator signed in at the portal and, through it, at the relying party
    const cookie = await login(first.url);
    const browser = new HttpClient(first.url);
    browser.cookies.set('pp_session', cookie.slice('pp_session='.length));
    const config = await discover({ url: first.url } as TestPortal, 'loyalty-app', SECRET);
    const tokens = await codeFlow(config, browser, REDIRECT);
    const { sub, sid } = tokens.claims()!;
    expect(sid).toBeTruthy();

    receiver.down = true;
    const changed = await api(first.url, 'POST', '/api/identity/change-password', {
      cookie,
      body: { current_password: ADMIN_PASSWORD, new_password: 'Another-Passw0rd!', confirm_password: 'Another-Passw0rd!' },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(204);
    const rows = () =>
      sql<{ state: string; attempts: number }>(database.url, `SELECT state, attempts FROM outbox WHERE kind = 'backchannel_logout'`);
    expect(await rows(), 'written with the change').toHaveLength(1);
    await until('a refused attempt, recorded', async () => receiver.refused >= 1 && (await rows())[0]!.attempts >= 1);
    await first.kill9();
    expect((await rows())[0]!.state).toBe('pending');
    expect(receiver.tokens).toEqual([]);

    receiver.down = false;
    const second = spawnServer(env);
    cleanups.push(() => second.stop());
    await waitForHealth(second.url, { server: second });
    await until('the logout token received', () => receiver.tokens.length > 0);
    await until('the logout recorded as delivered', async () => (await rows())[0]?.state === 'delivered');
    expect(receiver.tokens, 'once').toHaveLength(1);
    expect(decodeJwt(receiver.tokens[0]!)).toMatchObject({ sub, sid, aud: 'loyalty-app' });
    expect(second.errors()).toEqual([]);
    console.log(`back-channel logout: ${receiver.refused} refused attempts, a kill -9, then delivered once by a second start`);
  });
});
