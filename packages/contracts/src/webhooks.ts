import { z } from 'zod';
import { pageFields, pageQuery } from './fields.js';
import type { Rights } from './rights.js';
import { uuidSchema } from './schemas.js';
import { isWebhookEvent, WEBHOOK_EVENTS, type WebhookEventType } from './webhook-events.js';

/**
 * Webhooks (docs/integrations.md, "Webhooks"): an organization's subscriptions to the events of its
 * subtree, their deliveries, and the data each event carries, as the operating contract fixes them.
 * Fields beyond the contract's are optional in requests.
 */

/** The longest webhook URL accepted. */
export const WEBHOOK_URL_MAX_LENGTH = 2000;

/**
 * A webhook URL: http or https, absolute, without credentials or a fragment ('invalid_webhook_url'
 * otherwise). Whether its host may be called (private networks in production) the server decides.
 */
export const webhookUrlField = z
  .string({ message: 'invalid_webhook_url' })
  .trim()
  .max(WEBHOOK_URL_MAX_LENGTH, { message: 'invalid_webhook_url' })
  .refine(
    (value) => {
      try {
        const u = new URL(value);
        return (u.protocol === 'https:' || u.protocol === 'http:') && !!u.hostname && !u.username && !u.password && !u.hash;
      } catch {
        return false;
      }
    },
    { message: 'invalid_webhook_url' },
  );

/** The events of a subscription: one or more of WEBHOOK_EVENTS, or ["*"] ('unknown_webhook_event' names a wrong one). */
export const webhookEventsField = z
  .array(z.string({ message: 'unknown_webhook_event' }).max(100, { message: 'unknown_webhook_event' }), { message: 'required_field' })
  // the length is checked here, not with .min/.max, which zod applies to a string given instead of an array too
  .superRefine((events, ctx) => {
    if (!Array.isArray(events)) return;
    if (events.length === 0) ctx.addIssue({ code: 'custom', message: 'required_field' });
    if (events.length > WEBHOOK_EVENTS.length + 1) ctx.addIssue({ code: 'custom', message: 'unknown_webhook_event' });
    events.forEach((event, i) => {
      if (event !== '*' && !isWebhookEvent(event)) ctx.addIssue({ code: 'custom', message: 'unknown_webhook_event', path: [i] });
    });
    if (events.includes('*') && events.length > 1) ctx.addIssue({ code: 'custom', message: 'unknown_webhook_event' });
  })
  .transform((events) => [...new Set(events)].sort() as (WebhookEventType | '*')[]);

const descriptionField = z.string().trim().max(500, { message: 'validation_failed' });

export const webhookCreateSchema = z.object({
  url: webhookUrlField,
  events: webhookEventsField,
  description: descriptionField.nullish(),
});
export type WebhookCreate = z.input<typeof webhookCreateSchema>;

/** PATCH: any of the fields; a `description` of null removes it. The secret stays. */
export const webhookPatchSchema = z.object({
  url: webhookUrlField.optional(),
  events: webhookEventsField.optional(),
  description: descriptionField.nullish(),
});
export type WebhookPatch = z.input<typeof webhookPatchSchema>;

/** The answer of a creation: the signing secret (`whsec_` + base64) is shown here once, and never again. */
export const webhookCreatedSchema = z.object({ id: z.string(), secret: z.string() });
export type WebhookCreated = z.infer<typeof webhookCreatedSchema>;

export const webhookSchema = z.object({
  id: z.string(),
  organization_id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  description: z.string().nullable(),
  /** the service account that made it: the webhook ends with it (its deletion deletes it); null for a person's */
  service_account_id: z.string().nullable().optional(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Webhook = z.infer<typeof webhookSchema>;

export const webhookParamsSchema = z.object({ organizationId: uuidSchema, webhookId: uuidSchema });
export const webhookDeliveryParamsSchema = z.object({ organizationId: uuidSchema, webhookId: uuidSchema, deliveryId: uuidSchema });

export const WEBHOOK_DELIVERY_STATES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryState = (typeof WEBHOOK_DELIVERY_STATES)[number];

/** One attempt to deliver: the answer's status (null: none came in time), how long it took, why it failed. */
export const webhookDeliveryAttemptSchema = z.object({
  attempted_at: z.string(),
  status: z.number().int().nullable(),
  duration_ms: z.number().int(),
  error: z.string().nullable(),
});
export type WebhookDeliveryAttempt = z.infer<typeof webhookDeliveryAttemptSchema>;

/** One event for one subscription, with its attempts (oldest first); `id` is the `webhook-id` header of every attempt. */
export const webhookDeliverySchema = z.object({
  id: z.string(),
  event_type: z.string(),
  organization_id: z.string(),
  state: z.enum(WEBHOOK_DELIVERY_STATES),
  created_at: z.string(),
  /** when it is sent next (pending only) */
  next_attempt_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  attempt_count: z.number().int(),
  /** the body as sent: {type, timestamp, data} */
  payload: z.unknown(),
  attempts: z.array(webhookDeliveryAttemptSchema),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveriesQuerySchema = z.object({
  page: pageQuery,
  state: z.enum(WEBHOOK_DELIVERY_STATES, { message: 'validation_failed' }).optional(),
});
export const webhookDeliveriesResponseSchema = z.object({ ...pageFields, deliveries: z.array(webhookDeliverySchema) });
export type WebhookDeliveries = z.infer<typeof webhookDeliveriesResponseSchema>;

/** The answer of a redelivery: the delivery is due at once (202: sent by the worker, not in the request). */
export const webhookRetryResponseSchema = z.object({ id: z.string(), state: z.enum(WEBHOOK_DELIVERY_STATES) });

// ---- what a delivery carries ------------------------------------------------------------------------

/** An organization as its events carry it (organization_id is the organization itself). */
export interface OrganizationEventData {
  name: string;
  path: string;
  parent_id: string | null;
}

/** A member as member events carry it: member_id is the membership's id, as in the member calls. */
export interface MemberEventData {
  member_id: string;
  user_id: string;
  email_address: string;
  first_name: string;
  last_name: string;
  language_code: string;
  rights: Rights;
}

/** An invitation as invitation events carry it. */
export interface InvitationEventData {
  invitation_id: string;
  email_address: string;
  language_code: string;
  is_external_identity_provider: boolean;
  expires_at: string;
}

/**
 * The data of each event, without `organization_id`, which every event's data carries besides: the
 * organization the event happened in (for organization events, the organization itself).
 */
export interface WebhookEventData {
  'organization.created': OrganizationEventData;
  /** `changed`: which of the organization's settings changed (name, path, apps, can_create_sub_organization, allowed_email_domains) */
  'organization.updated': OrganizationEventData & { changed: string[] };
  'organization.deleted': OrganizationEventData;
  /** `source`: how the member came (an accepted invitation, a sign-in through SSO just in time, SCIM) */
  'member.created': MemberEventData & { source: 'invitation' | 'just_in_time' | 'scim'; invitation_id?: string };
  /** `changed`: first_name, last_name, language_code, rights */
  'member.updated': MemberEventData & { changed: string[] };
  'member.removed': Pick<MemberEventData, 'member_id' | 'user_id' | 'email_address'>;
  'member.deactivated': Pick<MemberEventData, 'member_id' | 'user_id' | 'email_address'>;
  'member.reactivated': Pick<MemberEventData, 'member_id' | 'user_id' | 'email_address'>;
  'invitation.created': InvitationEventData & { rights: Rights | null };
  'invitation.accepted': Pick<InvitationEventData, 'invitation_id' | 'email_address'> & { member_id: string; user_id: string };
  'invitation.revoked': Pick<InvitationEventData, 'invitation_id' | 'email_address'>;
  'invitation.expired': Pick<InvitationEventData, 'invitation_id' | 'email_address' | 'expires_at'>;
}

/** The JSON body of a delivery. */
export interface WebhookPayload<T extends WebhookEventType = WebhookEventType> {
  type: T;
  /** when the event happened (ISO 8601) */
  timestamp: string;
  data: WebhookEventData[T] & { organization_id: string };
}
