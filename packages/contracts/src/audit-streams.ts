import { z } from 'zod';
import { uuidSchema } from './schemas.js';
import { webhookUrlField } from './webhooks.js';

/**
 * Audit streams (docs/integrations.md, "Audit streams"): an organization's audit trail, its whole
 * subtree's, sent to a log system as it is written. `https`: signed like webhooks (Standard
 * Webhooks, the secret answered once); `splunk_hec`: Splunk's HTTP Event Collector
 * (`Authorization: Splunk <token>`); `datadog`: Datadog's logs intake (`DD-API-KEY: <token>`).
 */

export const AUDIT_STREAM_KINDS = ['https', 'splunk_hec', 'datadog'] as const;
export type AuditStreamKind = (typeof AUDIT_STREAM_KINDS)[number];

/** The kinds whose receiver takes a token (required for them). */
export const AUDIT_STREAM_TOKEN_KINDS: readonly AuditStreamKind[] = ['splunk_hec', 'datadog'];

export const AUDIT_STREAM_STATES = ['active', 'paused', 'failing'] as const;
export type AuditStreamState = (typeof AUDIT_STREAM_STATES)[number];

const kindField = z.enum(AUDIT_STREAM_KINDS, { message: 'invalid_audit_stream_kind' });
const tokenField = z
  .string({ message: 'validation_failed' })
  .trim()
  .min(1, { message: 'required_field' })
  .max(2000, { message: 'validation_failed' });
const descriptionField = z.string({ message: 'validation_failed' }).trim().max(500, { message: 'validation_failed' });

/** POST: the token is required for splunk_hec and datadog (`required_field` on `token`). */
export const auditStreamCreateSchema = z
  .object({
    kind: kindField,
    url: webhookUrlField,
    token: tokenField.nullish(),
    description: descriptionField.nullish(),
  })
  .superRefine((input, ctx) => {
    if (AUDIT_STREAM_TOKEN_KINDS.includes(input.kind) && !input.token)
      ctx.addIssue({ code: 'custom', message: 'required_field', path: ['token'] });
  });
export type AuditStreamCreate = z.input<typeof auditStreamCreateSchema>;

/** The answer of a creation: an `https` stream's signing secret (`whsec_…`), shown here once and never again. */
export const auditStreamCreatedSchema = z.object({ id: z.string(), secret: z.string().optional() });
export type AuditStreamCreated = z.infer<typeof auditStreamCreatedSchema>;

/** PATCH: any of the fields; `paused: false` resumes (what waited is sent), a `description` of null removes it. */
export const auditStreamPatchSchema = z.object({
  paused: z.boolean({ message: 'validation_failed' }).optional(),
  url: webhookUrlField.optional(),
  token: tokenField.optional(),
  description: descriptionField.nullish(),
});
export type AuditStreamPatch = z.input<typeof auditStreamPatchSchema>;

/** A stream as listed: never its token or secret. `last_delivered_at`: the time of the last entry it delivered. */
export const auditStreamSchema = z.object({
  id: z.string(),
  organization_id: z.string(),
  kind: z.enum(AUDIT_STREAM_KINDS),
  url: z.string(),
  description: z.string().nullable(),
  state: z.enum(AUDIT_STREAM_STATES),
  last_delivered_at: z.string().nullable(),
  last_error: z.string().nullable(),
  created_at: z.string(),
});
export type AuditStream = z.infer<typeof auditStreamSchema>;

export const auditStreamParamsSchema = z.object({ organizationId: uuidSchema, streamId: uuidSchema });

/** POST …/replay: every entry of the subtree from this time is sent again, after what is pending. */
export const auditStreamReplaySchema = z.object({
  from: z.iso.datetime({ offset: true, message: 'invalid_date_time' }),
});
export type AuditStreamReplay = z.input<typeof auditStreamReplaySchema>;

/** The answer of a replay (202: the worker sends them): how many entries were queued. */
export const auditStreamReplayedSchema = z.object({ queued: z.number().int() });
export type AuditStreamReplayed = z.infer<typeof auditStreamReplayedSchema>;
