import { adminQuery, TEMPLATE_DATABASE, testDatabaseUrl, withDatabase } from './support/database.js';
import { openDatabase } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';

/** Make the migrated template database that every test file clones (PostgreSQL only). */
export default async function setup(): Promise<void> {
  const base = testDatabaseUrl();
  if (!base) return;
  await adminQuery(base, `DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE} WITH (FORCE)`);
  await adminQuery(base, `CREATE DATABASE ${TEMPLATE_DATABASE}`);
  const db = await openDatabase({ databaseUrl: withDatabase(base, TEMPLATE_DATABASE), poolSize: 1 });
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
}
