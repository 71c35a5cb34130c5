import { preparedStatement, type Queryable } from '../../db/client.js';

/** SQL of the counters kept in PostgreSQL (rate_limits; stores.ts postgresCounterStore). */

/**
 * addAll's upsert as SQL, for a statement of its own or as a WITH query inside a larger one (the
 * password step, identity/queries.ts): adds `n` to the counter of each key of `keys` (SQL
 * expressions: a text[] without repeated keys, an integer, and the window in milliseconds).
 * Fixed windows: a counter whose window has ended starts again from `n` with a new window. Never
 * below 0. Atomic per key, and the rows are taken in key order, so that concurrent callers lock
 * them in the same order (no deadlock). Returns key, hits and reset_at of each key.
 */
export function counterAddSql(keys: string, n: string, windowMs: string): string {
  const window = `make_interval(secs => ${windowMs}::double precision / 1000)`;
  return `INSERT INTO rate_limits (key, hits, reset_at)
         SELECT k, greatest(0, ${n}), now() + ${window} FROM unnest(${keys}) AS k ORDER BY k
         ON CONFLICT (key) DO UPDATE SET
           hits = greatest(0, CASE WHEN rate_limits.reset_at <= now() THEN ${n} ELSE rate_limits.hits + ${n} END),
           reset_at = CASE WHEN rate_limits.reset_at <= now() THEN now() + ${window} ELSE rate_limits.reset_at END
         RETURNING key, hits, reset_at`;
}

/** The counters' one statement (add and addAll; a login gives its guesses back with it): prepared once per connection */
const ADD_ALL_SQL = preparedStatement('counters-add-all', counterAddSql('$1::text[]', '$2', '$3'));

/** Add n to the counters of keys (without repeats); their counts and resets, in no particular order. */
export async function addToCounters(
  q: Queryable,
  keys: readonly string[],
  n: number,
  windowMs: number,
): Promise<{ key: string; hits: number; reset_at: Date | string }[]> {
  const { rows } = await q.query<{ key: string; hits: number; reset_at: Date | string }>(ADD_ALL_SQL, [keys, n, windowMs]);
  return rows;
}

export async function deleteEndedCounters(q: Queryable): Promise<void> {
  await q.query('DELETE FROM rate_limits WHERE reset_at < now()');
}

export async function deleteCounter(q: Queryable, key: string): Promise<void> {
  await q.query('DELETE FROM rate_limits WHERE key = $1', [key]);
}
