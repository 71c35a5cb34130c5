import type { WebhookEventData, WebhookEventType, WebhookPayload } from '@partner-portal/contracts';
import type { Queryable } from '../../db/client.js';
import { insertDeliveries, notifySenders } from './queries.js';

/**
 * The transactional outbox of webhooks (docs/integrations.md, "Webhooks"; CONVENTIONS.md, "Events
 * leave through an outbox"). An event is recorded in the transaction of the change itself, by the
 * one record of a change (recordChange in webhooks/changes.ts, which calls recordEvent): one delivery row per subscription that hears it, written or rolled back with the
 * change, and the senders woken when it commits (worker.ts sends them). Nothing is sent from here.
 */

/** The organization an event happened in: its own subscriptions and its ancestors' hear it. */
export interface EventOrganization {
  id: string;
  path: string;
}

/** The paths of an organization and of each of its ancestors ("a/b/c" → "a", "a/b", "a/b/c"). */
export function pathAndAncestors(path: string): string[] {
  const segments = path.split('/');
  return segments.map((_, i) => segments.slice(0, i + 1).join('/'));
}

/**
 * Record an event in the caller's transaction: a delivery for every webhook of the event's
 * organization or of an ancestor that names the event (or "*"). The body is fixed now: `{type,
 * timestamp, data}` with the organization's id in `data.organization_id`. Returns the number of
 * deliveries written. Only recordChange (webhooks/changes.ts) calls it.
 */
export async function recordEvent<T extends WebhookEventType>(
  tx: Queryable,
  event: { type: T; organization: EventOrganization; data: WebhookEventData[T] },
): Promise<number> {
  const body: WebhookPayload<T> = {
    type: event.type,
    timestamp: new Date().toISOString(),
    data: { ...event.data, organization_id: event.organization.id },
  };
  const written = await insertDeliveries(tx, {
    type: event.type,
    organizationId: event.organization.id,
    paths: pathAndAncestors(event.organization.path),
    payload: JSON.stringify(body),
  });
  if (written > 0) await notifySenders(tx);
  return written;
}
