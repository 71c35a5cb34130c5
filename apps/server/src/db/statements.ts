/**
 * The registry of prepared statements: hot, fixed statements are named once and then run by name
 * on each PostgreSQL connection (db/postgres.ts), so they are parsed and planned once per connection.
 */
export const PREPARED_STATEMENTS = new Map<string, string>();

/**
 * Mark the text of a hot, fixed statement (run on nearly every request) to be prepared once per
 * PostgreSQL connection and then executed by name: it is parsed and planned once instead of on every
 * call. Only for statements whose best plan does not depend on their parameters' values. PGlite runs
 * it as any other statement. Returns the text.
 */
export function preparedStatement(name: string, text: string): string {
  PREPARED_STATEMENTS.set(text, name);
  return text;
}

/**
 * preparedStatement for a hot statement put together from a few fixed parts (db/sql.ts
 * withAlongside): each of its variants, a bounded number, is named on its first use.
 */
export function preparedVariant(prefix: string, text: string): string {
  if (!PREPARED_STATEMENTS.has(text)) PREPARED_STATEMENTS.set(text, `${prefix}-${PREPARED_STATEMENTS.size}`);
  return text;
}
