/**
 * The inactive-member filter: not signed in for this many days. Apart from its wire schema
 * (./schemas.ts, inactiveDaysSchema), so that the page that offers the choice does not load zod.
 */
export const INACTIVE_DAYS = [30, 90, 180, 365] as const;
export type InactiveDays = (typeof INACTIVE_DAYS)[number];
