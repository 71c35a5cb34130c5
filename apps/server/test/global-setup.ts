import pg from 'pg';
import { TEMPLATE_DATABASE, testDatabaseUrl, withDatabase } from './support/database.js';
import { openDatabase } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';

/**
 * Make the migrated template database that every test file clones (PostgreSQL only), once per test
 * run: the integration and end-to-end projects run side by side and both name this setup, so the
 * first makes the template under an advisory lock and marks it with the run's process id, and the
 * second finds it made.
 */
export default async function setup(): Promise<void> {
  const base = testDatabaseUrl();
  if (!base) return;
  const madeBy = `made by test run ${process.pid}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query("SELECT pg_advisory_lock(hashtext('partner-portal test template'))");
    const made = await admin.query<{ comment: string | null }>(
      'SELECT shobj_description(oid, $2) AS comment FROM pg_database WHERE datname = $1',
      [TEMPLATE_DATABASE, 'pg_database'],
    );
    if (made.rows[0]?.comment === madeBy) return;
    await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
    const db = await openDatabase({ databaseUrl: withDatabase(base, TEMPLATE_DATABASE), poolSize: 1 });
    try {
      await migrate(db);
    } finally {
      await db.close();
    }
    await admin.query(`COMMENT ON DATABASE ${TEMPLATE_DATABASE} IS '${madeBy}'`);
  } finally {
    await admin.end();
  }
}
