import {
  toRights,
  type MemberEventData,
  type Rights,
  type WebhookEventData,
  type WebhookEventType,
  type WebhookPayload,
} from '@partner-portal/contracts';
import type { Queryable } from '../../db/client.js';
import { findMemberForEvent, insertDeliveries, notifySenders } from './queries.js';

/**
 * The transactional outbox of webhooks (docs/integrations.md, "Webhooks"; CONVENTIONS.md, "Events
 * leave through an outbox"). A service records an event with recordEvent in the transaction of the
 * change itself: one delivery row per subscription that hears it, written or rolled back with the
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
 * deliveries written. Other modules (SCIM's member.deactivated / member.reactivated, single
 * sign-on's just-in-time member.created) call it the same way.
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

/** A member as member events carry it, from the columns the modules read. */
export function memberEventData(row: {
  membership_id: string;
  user_id: string;
  email: string;
  first_name: string;
  last_name: string;
  language_code: string;
  rights: unknown;
}): MemberEventData {
  return {
    member_id: row.membership_id,
    user_id: row.user_id,
    email_address: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    language_code: row.language_code,
    rights: toRights(row.rights),
  };
}

/**
 * Record a member event whose data is the member as stored now (after the change), read in the
 * caller's transaction with the organization it belongs to; `extra` adds the event's own fields.
 * Nothing is recorded for a user without a membership.
 */
export async function recordMemberEvent<T extends 'member.created' | 'member.updated'>(
  tx: Queryable,
  type: T,
  userId: string,
  extra: Omit<WebhookEventData[T], keyof MemberEventData>,
): Promise<number> {
  const member = await findMemberForEvent(tx, userId);
  if (!member) return 0;
  return recordEvent(tx, {
    type,
    organization: { id: member.organization_id, path: member.organization_path },
    data: { ...memberEventData(member), ...extra } as WebhookEventData[T],
  });
}

/** Record that a member was deactivated or reactivated (members/activation.ts), as they are stored now. */
export async function recordActivationEvent(
  tx: Queryable,
  type: 'member.deactivated' | 'member.reactivated',
  userId: string,
): Promise<number> {
  const member = await findMemberForEvent(tx, userId);
  if (!member) return 0;
  return recordEvent(tx, {
    type,
    organization: { id: member.organization_id, path: member.organization_path },
    data: { member_id: member.membership_id, user_id: member.user_id, email_address: member.email },
  });
}

/** Record that an invitation was made (by a person, or for a member a directory provisioned), as it is stored now. */
export async function recordInvitationCreated(
  tx: Queryable,
  invitation: {
    id: string;
    organization_id: string;
    organization_path: string;
    email: string;
    language_code: string;
    is_external_identity_provider: boolean;
    expires_at: Date | string;
  },
  rights: Rights | null,
): Promise<number> {
  return recordEvent(tx, {
    type: 'invitation.created',
    organization: { id: invitation.organization_id, path: invitation.organization_path },
    data: {
      invitation_id: invitation.id,
      email_address: invitation.email,
      language_code: invitation.language_code,
      is_external_identity_provider: invitation.is_external_identity_provider,
      expires_at: new Date(invitation.expires_at).toISOString(),
      rights,
    },
  });
}
