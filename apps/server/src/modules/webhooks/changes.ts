import { toRights, type MemberEventData, type Rights, type WebhookEventData, type WebhookEventType } from '@partner-portal/contracts';
import type { Queryable } from '../../db/client.js';
import { audit, type AuditActor, type AuditChange } from '../audit/service.js';
import { recordEvent, type EventOrganization } from './outbox.js';
import { findMemberForEvent } from './queries.js';

/**
 * The one record of a change (docs/decisions/009-one-place-per-rule.md): `recordChange` writes, in
 * the change's own transaction, its audit entry (modules/audit) and, where the change is an event
 * other systems hear of, its webhook events (the outbox's rows, webhooks/outbox.ts) — both commit
 * or roll back with the change. No service writes either by hand. It sits in modules/webhooks, the
 * lowest folder that may import both the audit trail and the outbox (eslint.config.js's layers).
 * Refused changes are audited apart, by audit/service.ts's `withRefusalAudit` and `auditRefusal`:
 * they happened in no transaction and are no event.
 */

/** A webhook event of a change: its type, the organization it happened in (its own and its ancestors' webhooks hear it), its data. */
export type ChangeEvent = {
  [T in WebhookEventType]: { type: T; organization: EventOrganization; data: WebhookEventData[T] };
}[WebhookEventType];

/** The events of a change, in the order they are written; a null (a member event without a member) is skipped. */
type ChangeEvents = readonly (ChangeEvent | null)[];

/**
 * A change: the audit entry (AuditChange) with its events, if any; or, for the few changes the
 * audit log does not keep, `audited: false` and only the events (a member's own profile, the
 * expiry of invitations).
 */
export type Change = (AuditChange & { events?: ChangeEvents }) | { audited: false; events: ChangeEvents };

/** Record a change in the caller's transaction: its audit entry first (when audited), then its events in order. */
export async function recordChange(tx: Queryable, actor: AuditActor, change: Change): Promise<void> {
  const { events = [], ...entry } = change;
  if (!('audited' in entry)) await audit(tx, actor, entry);
  for (const event of events) if (event) await recordEvent(tx, event);
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
 * A member event whose data is the member as stored now (after the change), read in the caller's
 * transaction with the organization it belongs to; `extra` adds the event's own fields. Null for a
 * user without a membership (nothing is recorded).
 */
export async function memberEvent<T extends 'member.created' | 'member.updated'>(
  tx: Queryable,
  type: T,
  userId: string,
  extra: Omit<WebhookEventData[T], keyof MemberEventData>,
): Promise<ChangeEvent | null> {
  const member = await findMemberForEvent(tx, userId);
  if (!member) return null;
  return {
    type,
    organization: { id: member.organization_id, path: member.organization_path },
    data: { ...memberEventData(member), ...extra } as WebhookEventData[T],
  } as ChangeEvent;
}

/** That a member was deactivated or reactivated (members/activation.ts), as they are stored now; null without a membership. */
export async function activationEvent(
  tx: Queryable,
  type: 'member.deactivated' | 'member.reactivated',
  userId: string,
): Promise<ChangeEvent | null> {
  const member = await findMemberForEvent(tx, userId);
  if (!member) return null;
  return {
    type,
    organization: { id: member.organization_id, path: member.organization_path },
    data: { member_id: member.membership_id, user_id: member.user_id, email_address: member.email },
  };
}

/** That an invitation was made (by a person, or for a member a directory provisioned), as it is stored now. */
export function invitationCreatedEvent(
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
): ChangeEvent {
  return {
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
  };
}
