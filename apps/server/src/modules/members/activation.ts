import type { Queryable } from '../../db/client.js';
import type { AccountAccess, BackchannelNotice } from '../sessions/service.js';
import * as q from './queries.js';

/**
 * Deactivating and reactivating a member (a directory's `active`: modules/scim). The account and
 * its membership stay; a deactivated account cannot sign in (password, external login, passkey,
 * refresh token: the session and account lookups skip it, http/session.ts and oidc/account.ts), and
 * deactivating it ends every access it has at once, as AccountAccess ends it. Both run in the
 * caller's transaction, which checks who may do it and records the change (Members.setActiveIn: its
 * audit entry and its member.deactivated / member.reactivated event, webhooks/changes.ts); the
 * back-channel logouts are written to the outbox in it (AccountAccess.revokeAll).
 */

/** A member as these functions change it. */
export interface ActivationTarget {
  membershipId: string;
  userId: string;
}

/**
 * Deactivate a member and end their access: the back-channel logouts written to the outbox, or null
 * when the member was deactivated already (nothing changes).
 */
export async function deactivateMember(
  tx: Queryable,
  access: AccountAccess,
  member: ActivationTarget,
): Promise<BackchannelNotice[] | null> {
  if (!(await q.setDeactivated(tx, member.userId, true))) return null;
  return (await access.revokeAll(tx, member.userId)).notices;
}

/** Reactivate a member: they may sign in again (sessions and tokens ended by the deactivation stay ended). False when they were active. */
export async function reactivateMember(tx: Queryable, member: ActivationTarget): Promise<boolean> {
  if (!(await q.setDeactivated(tx, member.userId, false))) return false;
  return true;
}
