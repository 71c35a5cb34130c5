import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Database } from './client.js';

/** Numbered SQL migrations, the same for PGlite and PostgreSQL (apps/server/migrations). */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations/', import.meta.url));

/** Advisory lock key: instances starting at once apply migrations one after another. */
export const MIGRATION_LOCK_KEY = 72_110_401;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f))
    .sort()
    .map((file) => ({ version: Number(file.slice(0, 4)), name: file, sql: readFileSync(new URL(file, `file://${dir}`), 'utf8') }));
}

/** Apply every migration not applied yet, each in its own transaction, under a lock. Returns the names applied. */
export async function migrate(db: Database, migrations = readMigrations()): Promise<string[]> {
  return db.withAdvisoryLock(MIGRATION_LOCK_KEY, async (q) => {
    await q.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const done = new Set((await q.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version));
    const applied: string[] = [];
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      await q.query('BEGIN');
      try {
        await q.query(m.sql);
        await q.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
        await q.query('COMMIT');
      } catch (err) {
        await q.query('ROLLBACK');
        throw new Error(`migration ${m.name} failed: ${(err as Error).message}`, { cause: err });
      }
      applied.push(m.name);
    }
    return applied;
  });
}
