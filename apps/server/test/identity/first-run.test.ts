import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/app.js';
import { bootstrap } from '../../src/bootstrap.js';
import { closeServices, createLogger, createServices } from '../../src/main.js';
import type { Services } from '../../src/services.js';
import { createFreshDatabase, testDatabaseUrl } from '../support/database.js';
import { HttpClient } from '../support/http.js';
import { freePort } from '../support/portal.js';
import { signIn } from '../support/sign-in.js';

/**
 * First start without BOOTSTRAP_ADMIN_PASSWORD: the administrator signs in with the generated
 * password and must choose their own before anything else; the server refuses every other signed-in
 * call until then. The administrator is greeted by a real word, not by "Portal".
 */
let services: Services;
let app: FastifyInstance;
let url: string;
let generated: string;
let drop: (() => Promise<void>) | undefined;
const EMAIL = 'first-admin@example.com';
const NEW_PASSWORD = 'My-Own-Passw0rd!';

beforeAll(async () => {
  const base = testDatabaseUrl();
  const database = base ? await createFreshDatabase(base) : null;
  drop = database?.drop;
  const port = await freePort();
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_MAX: '100000',
    ...(database ? { DATABASE_URL: database.url, DATABASE_POOL_SIZE: '3' } : {}),
  });
  services = await createServices(config, createLogger(config), { inMemory: !database });
  const result = await bootstrap(services.db, { adminEmail: EMAIL, adminPassword: undefined, providerName: 'Nedap' });
  generated = result.generatedPassword!;
  app = await buildApp(services);
  await app.listen({ port, host: '127.0.0.1' });
  url = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await app?.close();
  if (services) await closeServices(services);
  await drop?.();
});

describe('first run with a generated administrator password', () => {
  it('marks the administrator as having to change the password, and names them Portal Administrator', async () => {
    expect(generated).toBeTruthy();
    const client = await signIn(new HttpClient(url), { email: EMAIL, password: generated });
    const me = await client.get('/api/identity/user-info');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      email: EMAIL,
      firstName: 'Portal',
      lastName: 'Administrator',
      fullName: 'Portal Administrator',
      mustChangePassword: true,
    });
  });

  it('refuses every other signed-in call with 403 password_change_required until the password is changed', async () => {
    const client = await signIn(new HttpClient(url), { email: EMAIL, password: generated });
    for (const path of ['/api/portal', '/api/organizations/tree', '/api/members/export?output=csv']) {
      const res = await client.get(path);
      expect(res.status, path).toBe(403);
      expect(res.body).toMatchObject({ i18NTranslationKey: 'password_change_required' });
    }
    const changed = await client.post('/api/identity/change-password', {
      current_password: generated,
      new_password: NEW_PASSWORD,
      confirm_password: NEW_PASSWORD,
    });
    expect(changed.status).toBe(204);
    const me = await client.get('/api/identity/user-info');
    expect(me.body.mustChangePassword).toBeUndefined();
    expect((await client.get('/api/portal')).status).toBe(200);
    expect((await client.get('/api/organizations/tree')).status).toBe(200);
  });

  it('does not ask again once changed, nor when the operator set the password', async () => {
    const client = await signIn(new HttpClient(url), { email: EMAIL, password: NEW_PASSWORD });
    expect((await client.get('/api/identity/user-info')).body.mustChangePassword).toBeUndefined();
    const { rows } = await services.db.query<{ must_change_password: boolean }>(
      'SELECT must_change_password FROM users WHERE lower(email) = lower($1)',
      [EMAIL],
    );
    expect(rows[0]!.must_change_password).toBe(false);
  });
});
