import { SCIM_ORGANIZATION_EXTENSION } from '@partner-portal/contracts';
import { scimError } from './scimmy.js';

/**
 * SCIM filters (RFC 7644 §3.4.2.2) as SQL over a member's rows (`u` users, `m` memberships): scimmy
 * parses the expression (Types.Filter: a list of alternatives, each a set of conditions that all
 * hold); this turns it into a WHERE condition with parameters, so that the database finds the
 * matches (a directory's `userName eq "…"` is an index lookup). Attributes the portal does not keep,
 * and comparisons it cannot make, are refused with 400 invalidFilter.
 */

/** A parsed filter as scimmy gives it (SCIMMY.Types.Filter is an array of these). */
type Expression = Record<string, unknown>;

interface Column {
  /** SQL of the value */
  sql: string;
  kind: 'text' | 'caseExact' | 'boolean' | 'id' | 'constant';
}

/** The attributes a filter may compare, by lower-case name (sub-attributes as "parent.child"): those the portal keeps (scimmy.ts, KEPT). */
const COLUMNS: Record<string, Column> = {
  username: { sql: 'u.email', kind: 'text' },
  externalid: { sql: 'u.scim_external_id', kind: 'caseExact' },
  id: { sql: 'm.id::text', kind: 'id' },
  active: { sql: 'u.deactivated_at IS NULL', kind: 'boolean' },
  preferredlanguage: { sql: 'u.language_code', kind: 'text' },
  'name.givenname': { sql: 'u.first_name', kind: 'text' },
  'name.familyname': { sql: 'u.last_name', kind: 'text' },
  emails: { sql: 'u.email', kind: 'text' },
  'emails.value': { sql: 'u.email', kind: 'text' },
  // the one address of a member is their work address and the primary one
  'emails.type': { sql: `'work'`, kind: 'constant' },
  'emails.primary': { sql: 'true', kind: 'boolean' },
  [`${SCIM_ORGANIZATION_EXTENSION}:organizationid`.toLowerCase()]: { sql: 'm.organization_id::text', kind: 'id' },
};

/** Escape LIKE's special characters (the pattern uses '\' as its escape, PostgreSQL's default). */
const likeText = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

class FilterSql {
  readonly params: unknown[] = [];

  constructor(private readonly first: number) {}

  private param(value: unknown): string {
    this.params.push(value);
    return `$${this.first + this.params.length}`;
  }

  /** One comparison of an attribute (`["eq", "x"]`, `["not", "sw", "a"]`, `["pr"]`). */
  comparison(name: string, column: Column, expression: unknown[]): string {
    const negate = String(expression[0]).toLowerCase() === 'not';
    const [rawOperator, value] = negate ? expression.slice(1) : expression;
    const operator = String(rawOperator).toLowerCase();
    const sql = this.compare(name, column, operator, value, expression.length - (negate ? 1 : 0));
    return negate ? `NOT (${sql})` : sql;
  }

  private compare(name: string, column: Column, operator: string, value: unknown, arity: number): string {
    if (operator === 'pr' || operator === 'np') {
      const present = column.kind === 'boolean' || column.kind === 'constant' ? 'true' : `coalesce(${column.sql}, '') <> ''`;
      return operator === 'pr' ? present : `NOT ${present}`;
    }
    if (arity !== 2) throw scimError(400, 'invalidFilter', `The comparison of '${name}' has no value`);
    if (column.kind === 'boolean') {
      const wanted = typeof value === 'string' ? value.toLowerCase() : value;
      if ((wanted !== true && wanted !== false && wanted !== 'true' && wanted !== 'false') || (operator !== 'eq' && operator !== 'ne'))
        throw scimError(400, 'invalidFilter', `'${name}' is compared with eq or ne and true or false`);
      const is = wanted === true || wanted === 'true';
      return (operator === 'eq') === is ? `(${column.sql})` : `NOT (${column.sql})`;
    }
    if (typeof value !== 'string') throw scimError(400, 'invalidFilter', `'${name}' is compared with a string`);
    const caseless = column.kind === 'text' || column.kind === 'constant';
    const left = caseless ? `lower(${column.sql})` : `coalesce(${column.sql}, '')`;
    const given = caseless ? value.toLowerCase() : value;
    switch (operator) {
      case 'eq':
        return `${left} = ${this.param(given)}`;
      case 'ne':
        return `${left} <> ${this.param(given)}`;
      case 'co':
      case 'sw':
      case 'ew':
        if (column.kind === 'id') break;
        return `${left} LIKE ${this.param(`${operator === 'sw' ? '' : '%'}${likeText(given)}${operator === 'ew' ? '' : '%'}`)}`;
    }
    throw scimError(400, 'invalidFilter', `The operator '${operator}' is not supported for '${name}'`);
  }

  /** The conditions of one alternative: every attribute's, with sub-attributes of complex ones. */
  conjunction(expression: Expression, prefix = ''): string[] {
    const parts: string[] = [];
    for (const [key, conditions] of Object.entries(expression)) {
      const name = `${prefix}${key}`;
      if (!Array.isArray(conditions)) {
        if (conditions === null || typeof conditions !== 'object' || prefix)
          throw scimError(400, 'invalidFilter', `The attribute '${name}' cannot be filtered on`);
        parts.push(...this.conjunction(conditions as Expression, `${name}.`));
        continue;
      }
      const column = COLUMNS[name.toLowerCase()];
      if (!column) throw scimError(400, 'invalidFilter', `The attribute '${name}' cannot be filtered on`);
      const list = conditions.every(Array.isArray) ? (conditions as unknown[][]) : [conditions];
      for (const one of list) parts.push(this.comparison(name, column, one));
    }
    return parts;
  }
}

/**
 * The SQL condition of a parsed filter over `u` and `m`, with its parameters numbered after
 * `first` parameters of the caller's statement. 400 invalidFilter for what it cannot compare.
 */
export function filterCondition(filter: readonly Expression[], first: number): { sql: string; params: unknown[] } {
  const builder = new FilterSql(first);
  const alternatives = filter.map((expression) => {
    const parts = builder.conjunction(expression);
    return parts.length ? `(${parts.join(' AND ')})` : 'true';
  });
  return { sql: alternatives.length ? `(${alternatives.join(' OR ')})` : 'true', params: builder.params };
}
