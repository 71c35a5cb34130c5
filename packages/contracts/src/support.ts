import { z } from 'zod';

/**
 * Support access and support sessions (the operating contract, "Support access"; docs/api.md,
 * "Support sessions"; docs/security.md, "Support sessions").
 */

/** PUT /api/organizations/{organizationId}/support-access */
export const supportAccessUpdateSchema = z.object({ allowed: z.boolean({ message: 'required_field' }) });
export type SupportAccessUpdate = z.infer<typeof supportAccessUpdateSchema>;

/**
 * GET /api/organizations/{organizationId}/support-access: the organization's own setting
 * (`allowed`, false when never set), whether support may act on its members (`effective`: its own
 * setting and that of every ancestor), and the organization whose setting decides `effective`
 * (`set_by`: the highest ancestor that refuses, else the organization itself once set; null: never
 * set, the default), with its name.
 */
export const supportAccessSchema = z.object({
  allowed: z.boolean(),
  effective: z.boolean(),
  set_by: z.string().nullable(),
  set_by_name: z.string().nullable().optional(),
});
export type SupportAccess = z.infer<typeof supportAccessSchema>;

export const SUPPORT_REASON_MIN = 10;
export const SUPPORT_REASON_MAX = 500;
export const SUPPORT_MINUTES_MIN = 5;
export const SUPPORT_MINUTES_MAX = 60;

/** POST /api/members/{memberId}/support-sessions */
export const supportSessionRequestSchema = z.object({
  reason: z
    .string({ message: 'support_reason_length' })
    .trim()
    .min(SUPPORT_REASON_MIN, { message: 'support_reason_length' })
    .max(SUPPORT_REASON_MAX, { message: 'support_reason_length' }),
  minutes: z
    .number({ message: 'support_minutes_range' })
    .int({ message: 'support_minutes_range' })
    .min(SUPPORT_MINUTES_MIN, { message: 'support_minutes_range' })
    .max(SUPPORT_MINUTES_MAX, { message: 'support_minutes_range' }),
});
export type SupportSessionRequest = z.infer<typeof supportSessionRequestSchema>;

/** 201 of POST …/support-sessions: the session's id and the address that starts it in the caller's browser. */
export const supportSessionCreatedSchema = z.object({ id: z.string(), url: z.string() });
export type SupportSessionCreated = z.infer<typeof supportSessionCreatedSchema>;

export const supportSessionIdParamsSchema = z.object({ supportSessionId: z.uuid({ message: 'invalid_id' }) });

/** The support session a signed-in browser is in (GET /api/identity/user-info `supportSession`): who supports, until when. */
export const currentSupportSessionSchema = z.object({
  id: z.string(),
  supporterEmail: z.string(),
  supporterName: z.string(),
  endsAt: z.string(),
});
export type CurrentSupportSession = z.infer<typeof currentSupportSessionSchema>;

/** One past (or running) support session of the signed-in user, for their profile. */
export const ownSupportSessionSchema = z.object({
  id: z.string(),
  supporter_name: z.string(),
  supporter_email: z.string(),
  reason: z.string(),
  minutes: z.number(),
  created_at: z.string(),
  /** when the supporter's browser entered it; null: never started */
  started_at: z.string().nullable(),
  /** when it ended (ended by the supporter, or its time ran out); null: still running or not started */
  ended_at: z.string().nullable(),
});
export type OwnSupportSession = z.infer<typeof ownSupportSessionSchema>;

/** GET /api/me/support-sessions */
export const ownSupportSessionsSchema = z.object({ sessions: z.array(ownSupportSessionSchema) });
export type OwnSupportSessions = z.infer<typeof ownSupportSessionsSchema>;

/** Who acted through a support session, as an audit entry names them ("X as Y"). */
export const supportedBySchema = z.object({ email: z.string(), name: z.string().nullable() });
