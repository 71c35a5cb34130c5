import type { Database, DatabaseOptions } from './database.js';
import { openPglite } from './pglite.js';
import { openPostgres } from './postgres.js';

export * from './database.js';
export { preparedStatement, preparedVariant } from './statements.js';
export { EmbeddedDatabaseInUseError, PGLITE_SETTINGS } from './pglite.js';

/**
 * The database as the portal sees it: PostgreSQL (db/postgres.ts) or the embedded PGlite
 * (db/pglite.ts) behind one interface (db/database.ts), with prepared statements named in
 * db/statements.ts.
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options) : openPglite(options);
}
