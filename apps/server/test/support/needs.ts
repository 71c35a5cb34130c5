import { describe, it } from 'vitest';
import { testDatabaseUrl } from './database.js';

/** Said in the summary for every suite that did not run for want of PostgreSQL (scripts/summary-reporter.ts). */
export const NEEDS_POSTGRES = 'needs PostgreSQL: set DATABASE_URL';

/**
 * A suite that needs PostgreSQL itself (two instances on one database, LISTEN/NOTIFY, a race of
 * migrations), not the embedded database. With PostgreSQL it is registered as usual and gets the
 * server's address; without it, one test stands in its place and is reported as skipped with
 * NEEDS_POSTGRES as its reason, so the summary says what did not run and why.
 *
 * Test files never skip themselves (the guard in
 * apps/server/test/security/penetration-findings.test.ts): this is the one place that skips.
 */
export function needsPostgres(name: string, suite: (databaseUrl: string) => void): void {
  const databaseUrl = testDatabaseUrl();
  describe(name, () => {
    if (databaseUrl) suite(databaseUrl);
    else it(NEEDS_POSTGRES, (context) => context.skip(NEEDS_POSTGRES));
  });
}
