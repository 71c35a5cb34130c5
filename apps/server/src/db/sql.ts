import type { Queryable } from './database.js';

/** SQL fragments shared by the modules' queries. */

/**
 * SQL condition "column is the path $n or below it", written as an equality or a range so that the
 * b-tree index on a COLLATE "C" path column serves it ('0' is the byte after '/').
 */
export function subtreeCondition(column: string, param: string): string {
  return `(${column} = ${param}::text OR (${column} >= ${param}::text || '/' AND ${column} < ${param}::text || '0'))`;
}

/** Strict descendants only. */
export function descendantsCondition(column: string, param: string): string {
  return `(${column} >= ${param}::text || '/' AND ${column} < ${param}::text || '0')`;
}

/** A LIKE pattern matching the text anywhere, with LIKE's special characters escaped. */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A statement, or a write to run inside another one: its SQL, with its parameters numbered from $1. */
export interface SqlStatement {
  readonly text: string;
  readonly params: readonly unknown[];
}

/**
 * One statement that runs `main` and, beside it, each of `alongside` as a WITH query of its own:
 * one round trip instead of several. PostgreSQL runs a data-modifying WITH query once and to
 * completion whether or not the rest of the statement reads it, and all of them see the same
 * snapshot, so the writes must not depend on each other's results (nor touch the same rows). The
 * parts' parameters are renumbered to follow main's: their text may use "$" followed by a digit
 * only for parameters. `main` may begin with a WITH list of its own (RECURSIVE too).
 */
export function withAlongside(main: SqlStatement, alongside: readonly SqlStatement[]): SqlStatement {
  if (alongside.length === 0) return main;
  const params = [...main.params];
  // named after any that main has already (a statement joined twice)
  const first = main.text.match(/\balongside_\d+ AS \(/g)?.length ?? 0;
  const queries = alongside.map((part, i) => {
    const offset = params.length;
    params.push(...part.params);
    return `alongside_${first + i} AS (${part.text.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`)})`;
  });
  const ownWith = /^\s*WITH\s+(RECURSIVE\s+)?/i.exec(main.text);
  const text = ownWith
    ? `WITH ${ownWith[1] ? 'RECURSIVE ' : ''}${queries.join(', ')}, ${main.text.slice(ownWith[0].length)}`
    : `WITH ${queries.join(', ')} ${main.text}`;
  return { text, params };
}

/**
 * Run fn as one step of the caller's transaction that may fail alone: a savepoint before it,
 * released when it succeeds, rolled back to (undoing only the step) when it throws; the error is
 * thrown on.
 */
export async function asSavepoint<T>(tx: Queryable, name: string, fn: () => Promise<T>): Promise<T> {
  await tx.query(`SAVEPOINT ${name}`);
  try {
    const value = await fn();
    await tx.query(`RELEASE SAVEPOINT ${name}`);
    return value;
  } catch (err) {
    await tx.query(`ROLLBACK TO SAVEPOINT ${name}`);
    throw err;
  }
}
