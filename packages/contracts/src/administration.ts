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

// ---- bulk invitations ---------------------------------------------------------------------------

/** The most rows one CSV file of invitations may hold. */
export const BULK_INVITATION_MAX_ROWS = 1_000;

/**
 * What would happen to (dry run), or happened to (sent), one row of the file:
 * ok (would be sent), sent, or why not.
 */
export const BULK_INVITATION_VERDICTS = [
  'ok',
  'invalid_address',
  'domain_not_allowed',
  'already_member',
  'already_invited',
  'duplicate_in_file',
  'invalid_language',
  'invalid_name',
] as const;
export const bulkInvitationVerdictSchema = z.enum(BULK_INVITATION_VERDICTS);
export type BulkInvitationVerdict = z.infer<typeof bulkInvitationVerdictSchema>;
export const bulkInvitationOutcomeSchema = z.enum([...BULK_INVITATION_VERDICTS, 'sent', 'failed']);
export type BulkInvitationOutcome = z.infer<typeof bulkInvitationOutcomeSchema>;

export const bulkInvitationRequestSchema = z.object({
  /**
   * The CSV text: a header row naming the columns email (or email_address), first_name,
   * last_name, language (or language_code) — or no header and those four columns in that order.
   * Comma or semicolon separated; UTF-8 (a byte-order mark is ignored).
   */
  csv: z.string({ message: 'csv_invalid' }).max(1_000_000, { message: 'csv_too_many_rows' }),
  /** copy the rights of this member (in the actor's subtree) to every invitation; absent: no rights */
  rights_from_member_id: uuid.nullish(),
});
export type BulkInvitationRequest = z.input<typeof bulkInvitationRequestSchema>;

export const bulkInvitationRowSchema = z.object({
  /** the row's line in the file (the header is line 1 when there is one) */
  line: z.number().int(),
  email_address: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  /** the invitation's language; null: the inviter's; of a row refused as invalid_language, the value the file gave */
  language_code: z.string().nullable(),
  outcome: bulkInvitationOutcomeSchema,
  /** the invitation made (sent rows only) */
  invitation_id: z.string().nullable().optional(),
});
export type BulkInvitationRow = z.infer<typeof bulkInvitationRowSchema>;

/** The columns of a bulk sending's report (the server's stored report and the web app's download alike). */
export const BULK_REPORT_COLUMNS = [
  'line',
  'email_address',
  'first_name',
  'last_name',
  'language_code',
  'outcome',
  'invitation_id',
] as const;

/** A report row's cells, in the order of BULK_REPORT_COLUMNS. */
export function bulkReportCells(row: BulkInvitationRow): string[] {
  return [
    String(row.line),
    row.email_address,
    row.first_name,
    row.last_name,
    row.language_code ?? '',
    row.outcome,
    row.invitation_id ?? '',
  ];
}

export const bulkInvitationResponseSchema = z.object({
  /** the stored report of a sending (absent for a dry run) */
  batch_id: z.string().optional(),
  organization_id: z.string(),
  dry_run: z.boolean(),
  total: z.number().int(),
  /** rows that would be sent (dry run) or were sent */
  ok: z.number().int(),
  refused: z.number().int(),
  rows: z.array(bulkInvitationRowSchema),
});
export type BulkInvitationResponse = z.infer<typeof bulkInvitationResponseSchema>;
export const invitationBatchParamsSchema = z.object({ batchId: uuid });
