/** Rules of the organization tree shared by server and web. */

/**
 * The path segment an organization name gives: lower case, without accents, words joined by '-'.
 * 'Dealer Noord B.V.' gives 'dealer-noord-b-v'.
 */
export function organizationPathSegment(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
}

/** The maximum depth of the tree (root is level 0). */
export const MAX_ORGANIZATION_DEPTH = 10;

/** Rows shown in the users and invitations tables before 'view all' (docs/product.md, "Limits and constants"). */
export const TABLE_ROWS_DEFAULT = 4;
