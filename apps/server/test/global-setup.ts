import pg from 'pg';
import { TEMPLATE_DATABASE, testDatabaseUrl, withDatabase } from './support/database.js';
import { openDatabase } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';

/**
 * Make the migrated template database that every test file clones (PostgreSQL only), unless it is
 * made: its name is the fingerprint of the migrations (support/database.ts), so a template marked
 * complete holds exactly these migrations. The integration and end-to-end projects run side by
 * side and both name this setup (and other checkouts may run at once): the first makes it under an
 * advisory lock, the others find it made.
 */
export default async function setup(): Promise<void> {
  const base = testDatabaseUrl();
  if (!base) return;
  const complete = 'migrated';
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query("SELECT pg_advisory_lock(hashtext('partner-portal test template'))");
    const made = await admin.query<{ comment: string | null }>(
      'SELECT shobj_description(oid, $2) AS comment FROM pg_database WHERE datname = $1',
      [TEMPLATE_DATABASE, 'pg_database'],
    );
    if (made.rows[0]?.comment === complete) return;
    // a template left half made (a run stopped while migrating) is made again
    await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
    const db = await openDatabase({ databaseUrl: withDatabase(base, TEMPLATE_DATABASE), poolSize: 1 });
    try {
      await migrate(db);
    } finally {
      await db.close();
    }
    await admin.query(`COMMENT ON DATABASE ${TEMPLATE_DATABASE} IS '${complete}'`);
  } finally {
    await admin.end();
  }
}
