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
