/**
 * The events of webhooks (docs/integrations.md, "Webhooks"). Apart from the webhooks' wire schemas
 * (./webhooks.ts), so that the page that lists the events does not load zod.
 */

/** The events a subscription may name (or "*" for all of them, those added later included). */
export const WEBHOOK_EVENTS = [
  'organization.created',
  'organization.updated',
  'organization.deleted',
  'member.created',
  'member.updated',
  'member.removed',
  'member.deactivated',
  'member.reactivated',
  'invitation.created',
  'invitation.accepted',
  'invitation.revoked',
  'invitation.expired',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

export function isWebhookEvent(value: string): value is WebhookEventType {
  return (WEBHOOK_EVENTS as readonly string[]).includes(value);
}
