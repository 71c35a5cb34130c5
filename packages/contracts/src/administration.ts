import { z } from 'zod';

/**
 * The administrator's day: bulk removal of members, sessions (the user's own list and a
 * userManager's "sign out everywhere"), and bulk invitations from a CSV file.
 */

const uuid = z.uuid({ message: 'validation_failed' });

// ---- bulk removal -------------------------------------------------------------------------------

/** The most members one bulk removal takes. */
export const BULK_REMOVE_MAX = 200;

export const bulkRemoveMembersRequestSchema = z.object({
  member_ids: z
    .array(uuid)
    .min(1, { message: 'validation_failed' })
    .max(BULK_REMOVE_MAX, { message: 'validation_failed' })
    .refine((ids) => new Set(ids).size === ids.length, { message: 'validation_failed' }),
});
export type BulkRemoveMembersRequest = z.infer<typeof bulkRemoveMembersRequestSchema>;
export const bulkRemoveMembersResponseSchema = z.object({ removed: z.number().int() });

// ---- sessions -----------------------------------------------------------------------------------

export const accountSessionSchema = z.object({
  id: z.string(),
  /** browser and system read from the User-Agent ("Firefox (Windows)"); null when unknown */
  browser: z.string().nullable(),
  user_agent: z.string().nullable(),
  ip_address: z.string().nullable(),
  created_at: z.string(),
  last_seen_at: z.string(),
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof accountSessionSchema>;
export const accountSessionsResponseSchema = z.object({ sessions: z.array(accountSessionSchema) });
export type AccountSessionsResponse = z.infer<typeof accountSessionsResponseSchema>;
export const sessionIdParamsSchema = z.object({ sessionId: z.string().min(1).max(100) });
export const endedSessionsResponseSchema = z.object({ ended: z.number().int() });

/**
 * Whether a change of rights takes anything away: a right (at any depth) true before and not true
 * after. Taking rights away ends the member's sessions and tokens at once.
 */
export function rightsTakenAway(before: unknown, after: unknown): boolean {
  if (before === true) return after !== true;
  if (before === null || typeof before !== 'object') return false;
  const next = after !== null && typeof after === 'object' ? (after as Record<string, unknown>) : {};
  return Object.entries(before as Record<string, unknown>).some(([key, value]) => rightsTakenAway(value, next[key]));
}
