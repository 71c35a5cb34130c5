import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { bootstrap } from '../../src/bootstrap.js';
import { openDatabase } from '../../src/db/client.js';
import { ACCOUNT_SQL } from '../../src/oidc/queries.js';
import { closeServices, createLogger, createServices } from '../../src/main.js';
import { adminQuery, withDatabase } from '../support/database.js';
import { needsPostgres } from '../support/needs.js';
import { freePort } from '../support/portal.js';

const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

/**
 * Run the server's main as a child process. It is stopped as soon as its output matches `until`
 * (or when it exits by itself, or after the time limit — generous, since the machine may be busy).
 */
function runMain(env: Record<string, string>, until?: RegExp, limitMs = 90_000): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN], { env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env } });
    let output = '';
    const onData = (d: Buffer) => {
      output += d.toString();
      if (until?.test(output)) child.kill('SIGTERM');
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('the embedded database', () => {
  it('counts rows as PostgreSQL does: those a SELECT returned, those a write changed', async () => {
    const db = await openDatabase({ inMemory: true });
    try {
      await db.query('CREATE TABLE counted (n int)');
      expect((await db.query('INSERT INTO counted SELECT generate_series(1, 3)')).rowCount).toBe(3);
      expect((await db.query('SELECT n FROM counted WHERE n > $1', [1])).rowCount).toBe(2);
      expect((await db.query('UPDATE counted SET n = n WHERE n > $1', [5])).rowCount).toBe(0);
      expect((await db.query('DELETE FROM counted WHERE n = $1 RETURNING n', [3])).rowCount).toBe(1);
    } finally {
      await db.close();
    }
  });
});

describe('start-up', () => {
  it('stops on invalid configuration, naming each bad variable', async () => {
    const { code, output } = await runMain({ PORT: 'abc', DATABASE_URL: 'nonsense' });
    expect(code).not.toBe(0);
    expect(output).toContain('PORT');
    expect(output).toContain('DATABASE_URL');
  }, 120_000);

  it('keeps the embedded database across restarts and prints the generated admin login once', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pp-data-'));
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    const first = await createServices(config, createLogger(config));
    const created = await bootstrap(first.db, { adminEmail: 'boss@example.com', adminPassword: undefined, providerName: 'Nedap' });
    expect(created.created).toBe(true);
    expect(created.generatedPassword).toMatch(/^.{20,}$/);
    await first.db.query("INSERT INTO notifications (text) VALUES ('kept')");
    // a second process on the same embedded data directory is refused while the first runs
    const { code, output } = await runMain({ DATA_DIR: dataDir, PORT: String(await freePort()) }, /is listening/);
    expect(code).not.toBe(0);
    expect(output).toMatch(/in use by process/);
    await closeServices(first);

    const second = await createServices(config, createLogger(config));
    const again = await bootstrap(second.db, { adminEmail: 'boss@example.com', adminPassword: undefined, providerName: 'Nedap' });
    expect(again.created).toBe(false);
    const { rows } = await second.db.query<{ n: number }>("SELECT count(*)::int AS n FROM notifications WHERE text = 'kept'");
    expect(rows[0]!.n).toBe(1);
    await closeServices(second);
  }, 180_000);
});

needsPostgres('PostgreSQL', (pgUrl) => {
  it('two instances starting at once on an empty database both come up, migrated and bootstrapped once', async () => {
    const name = `pp_race_${Date.now().toString(36)}`;
    await adminQuery(pgUrl, `CREATE DATABASE ${name}`);
    const url = withDatabase(pgUrl, name);
    try {
      const [portA, portB] = [await freePort(), await freePort()];
      const common = { DATABASE_URL: url, BOOTSTRAP_ADMIN_PASSWORD: 'Very-Secret-1' };
      const [a, b] = await Promise.all([
        runMain({ ...common, PORT: String(portA) }, /is listening/),
        runMain({ ...common, PORT: String(portB) }, /is listening/),
      ]);
      expect(a.output).toContain('is listening');
      expect(b.output).toContain('is listening');
      const config = loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent' });
      const services = await createServices(config, createLogger(config));
      const orgs = await services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM organizations');
      const migrations = await services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations');
      expect(orgs.rows[0]!.n).toBe(1);
      expect(migrations.rows[0]!.n).toBeGreaterThanOrEqual(2);
      await closeServices(services);
    } finally {
      await adminQuery(pgUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    }
  }, 180_000);

  it('uses the indexes for subtree and e-mail substring search', async () => {
    const name = `pp_explain_${Date.now().toString(36)}`;
    await adminQuery(pgUrl, `CREATE DATABASE ${name}`);
    const config = loadConfig({ DATABASE_URL: withDatabase(pgUrl, name), LOG_LEVEL: 'silent' });
    const services = await createServices(config, createLogger(config));
    try {
      await services.db.query('SET enable_seqscan = off');
      const subtree = await services.db.query<{ 'QUERY PLAN': string }>(
        "EXPLAIN SELECT id FROM organizations WHERE path = 'nedap' OR path LIKE 'nedap/%'",
      );
      expect(subtree.rows.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/organizations_path_key/);
      const search = await services.db.query<{ 'QUERY PLAN': string }>(
        "EXPLAIN SELECT id FROM memberships WHERE lower(email) LIKE '%abc%'",
      );
      expect(search.rows.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/memberships_email_trgm_idx/);
      // the account behind every token, refresh and userinfo call: by primary key, never a scan of users
      const account = await services.db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${ACCOUNT_SQL}`, [randomUUID()]);
      const accountPlan = account.rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(accountPlan).toMatch(/users_pkey/);
      expect(accountPlan).toMatch(/Index Cond: \(id = /);
      expect(accountPlan).not.toMatch(/Seq Scan on users|Filter: \(\(id\)::text/);
    } finally {
      await closeServices(services);
      await adminQuery(pgUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    }
  });
});
