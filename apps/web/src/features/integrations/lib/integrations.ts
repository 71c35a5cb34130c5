import { WEBHOOK_EVENTS, type WebhookDelivery, type WebhookEventType } from '@partner-portal/contracts';

/**
 * Pure helpers of the "Integrations" section (features/integrations): which panels a manager
 * sees, the contract's webhook events grouped for the form, and what a delivery's last attempt says.
 */

// which panels: a module of its own, read by the manage page before this section's code has loaded
// (components/administrator-tools.tsx)
export { integrationPanels, type IntegrationPanel } from './integration-panels';

export type WebhookEventGroup = 'organization' | 'member' | 'invitation';

/** The contract's events by what they are about, in the contract's order. */
export function webhookEventGroups(): { group: WebhookEventGroup; events: WebhookEventType[] }[] {
  const groups: WebhookEventGroup[] = ['organization', 'member', 'invitation'];
  return groups.map((group) => ({ group, events: WEBHOOK_EVENTS.filter((event) => event.startsWith(`${group}.`)) }));
}

/** Whether a subscription is to every event ("*"). */
export const isAllEvents = (events: readonly string[]) => events.includes('*');

/**
 * What a delivery's last attempt got: the HTTP status of the answer, none (no answer in time, a
 * refused address: the attempt's error says which), or not tried yet.
 */
export type LastAttempt = { kind: 'status'; status: number } | { kind: 'no-answer'; error: string | null } | { kind: 'not-sent' };

export function lastAttempt(delivery: Pick<WebhookDelivery, 'attempts'>): LastAttempt {
  const last = delivery.attempts.at(-1);
  if (!last) return { kind: 'not-sent' };
  return last.status === null ? { kind: 'no-answer', error: last.error } : { kind: 'status', status: last.status };
}

/**
 * Whom or what a delivery is about, from the event's data in its payload: the member's or the
 * invitee's address, else the organization's name, else its path (null when the payload says none).
 */
export function deliverySubject(delivery: Pick<WebhookDelivery, 'payload'>): string | null {
  const payload = delivery.payload;
  const data = payload && typeof payload === 'object' ? (payload as { data?: unknown }).data : null;
  if (!data || typeof data !== 'object') return null;
  const fields = data as Record<string, unknown>;
  for (const name of ['email_address', 'name', 'path']) if (typeof fields[name] === 'string' && fields[name] !== '') return fields[name];
  return null;
}

/**
 * What a delivery's state reads as: delivered, failed for good, failing (it failed at least once and
 * will be tried again), or waiting for its first attempt.
 */
export type DeliveryStatus = 'succeeded' | 'failed' | 'failing' | 'pending';

export function deliveryStatus(delivery: Pick<WebhookDelivery, 'state' | 'attempt_count' | 'attempts'>): DeliveryStatus {
  if (delivery.state !== 'pending') return delivery.state;
  const last = lastAttempt(delivery);
  const failed = last.kind === 'no-answer' || (last.kind === 'status' && (last.status < 200 || last.status >= 300));
  return delivery.attempt_count > 0 && failed ? 'failing' : 'pending';
}
