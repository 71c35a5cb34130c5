import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';

/**
 * Test databases. With TEST_DATABASE_URL or DATABASE_URL set, every test file gets its own fresh
 * PostgreSQL database, cloned from a migrated template (made by the global setup). Without either,
 * tests run on the embedded PGlite in memory.
 *
 * The template is named after what it is made of, the migrations and the code that applies them:
 * two checkouts (or two runs) with the same migrations share it, made once, and a checkout whose
 * migrations differ gets a template of its own, so that runs at once on one PostgreSQL never drop
 * or change each other's template. TEST_TEMPLATE_DATABASE names it instead.
 */
export const TEMPLATE_DATABASE = process.env.TEST_TEMPLATE_DATABASE || `pp_template_${migrationsFingerprint()}`;

function migrationsFingerprint(): string {
  const hash = createHash('sha256');
  const migrations = new URL('../../migrations/', import.meta.url);
  for (const name of readdirSync(migrations).sort()) hash.update(name).update(readFileSync(new URL(name, migrations)));
  hash.update(readFileSync(new URL('../../src/db/migrate.ts', import.meta.url)));
  return hash.digest('hex').slice(0, 16);
}

export function testDatabaseUrl(): string | undefined {
  return process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || undefined;
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A new database cloned from the migrated template; returns its URL and a function to drop it. */
export async function createFreshDatabase(baseUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `pp_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  // CREATE DATABASE ... TEMPLATE fails while another session is connected to the template: retry.
  for (let attempt = 0; ; attempt++) {
    try {
      await adminQuery(baseUrl, `CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DATABASE}`);
      break;
    } catch (err) {
      if (attempt > 20) throw err;
      await new Promise((r) => setTimeout(r, 100 + attempt * 50));
    }
  }
  return {
    url: withDatabase(baseUrl, name),
    drop: () => adminQuery(baseUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined),
  };
}
