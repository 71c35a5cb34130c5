import {
  canManageMember,
  changesNotHeld,
  isUserManager,
  removesLastRootUserManager,
  rightsNotHeld,
  rightsTakenAway,
  toRights,
  type Rights,
} from '@partner-portal/contracts';
import { isDeepStrictEqual } from 'node:util';
import type { Database, Queryable } from '../../db/client.js';
import { userIdOf } from '../../http/actor.js';
import { AppError } from '../../http/problem.js';
import { actingAs, type Actor, type SessionStore } from '../../http/session.js';
import { auditRefusal, RefusedChange, withRefusalAudit, type AuditChange } from '../audit/service.js';
import { assertInSubtree, requireRole } from '../scope/access.js';
import type { AccountAccess } from '../sessions/service.js';
import { activationEvent, memberEvent, recordChange } from '../webhooks/changes.js';
import { deactivateMember, reactivateMember } from './activation.js';
import * as q from './queries.js';
import { delegatorOf, rightsContextFor, validateRights } from './rights-context.js';

/**
 * Members (docs/product.md, "Roles and rights" and "Calls" Members): rights, removal, search and export. A member id is the id of the
 * membership (one per user). userManagers of the member's subtree edit rights and remove members.
 */

/**
 * A member of the actor's subtree, for a userManager (scope/access.ts: 403 without the role, 404
 * unknown, 403 outside the subtree): every actor — a person, a service account, a directory —
 * reaches a member through this one check.
 */
export async function memberOfActor(db: Queryable, actor: Actor, memberId: string, forUpdate = false) {
  const member = requireRole(actor, 'user');
  const row = await q.findMembership(db, memberId, { forUpdate });
  if (!row) throw new AppError('unknown_member');
  assertInSubtree(member, row.organization_path);
  return row;
}

/** Serialises every change of a root organization's member, so that two cannot both remove the last user manager. */
const ROOT_MEMBERS_LOCK_KEY = 72_110_403;

/** Take the root organization's member lock when the member belongs to it (before the member's row lock). */
export async function lockIfRootMember(tx: Queryable, memberId: string): Promise<void> {
  const peek = await q.findMembership(tx, memberId);
  if (peek?.organization_depth === 0) await q.lockRootMembers(tx, ROOT_MEMBERS_LOCK_KEY);
}

/** 403 (audited) unless the actor holds every right the member holds (contracts delegation.ts). */
export function assertCanManageMember(actor: Actor, memberRights: Rights, change: AuditChange): void {
  if (!canManageMember(delegatorOf(actor), memberRights)) {
    const missing = rightsNotHeld(delegatorOf(actor), memberRights);
    throw new RefusedChange('cannot_manage_member_with_more_rights', change, { messages: missing, params: { rights: missing.join(', ') } });
  }
}

/**
 * 409 when the change (after null: removal, deactivation, a move) leaves the provider's root
 * organization without an active user manager (a deactivated one cannot sign in to manage anyone).
 */
export async function assertKeepsRootUserManager(
  tx: Queryable,
  row: q.MembershipRow,
  after: Rights | null,
  change: AuditChange,
): Promise<void> {
  if (row.organization_depth !== 0) return;
  const others = await q.listOtherActiveMemberRights(tx, row.organization_id, row.id);
  const another = others.some((rights) => isUserManager(toRights(rights)));
  if (removesLastRootUserManager(toRights(row.rights), after, another)) throw new RefusedChange('last_root_user_manager', change);
}

/**
 * The member an actor is about to change (their rights, their second factors), locked for the
 * change: in the actor's subtree, not the actor, and holding no right the actor lacks (delegation,
 * docs/security.md). Every change to a member goes through this one check; `describe` names the
 * change for the audit log, where a refusal is recorded too.
 */
export async function memberForChange(tx: Queryable, actor: Actor, memberId: string, describe: (row: q.MembershipRow) => AuditChange) {
  const row = await memberOfActor(tx, actor, memberId, true);
  if (row.user_id === userIdOf(actor)) throw new AppError('forbidden', { detail: 'You cannot change your own rights or factors' });
  const change = describe(row);
  assertCanManageMember(actor, toRights(row.rights), change);
  return { row, change };
}

/** A timestamp from the database as ISO 8601, or null. */
export function isoOrNull(value: Date | string | null | undefined): string | null {
  return value === null || value === undefined ? null : new Date(value).toISOString();
}

/**
 * The members of the actor's subtree (the rules: the comment at the top of this file): their
 * rights, removal and signing out, each ending what must end through AccountAccess.
 */
export class Members {
  constructor(private readonly deps: { db: Database; sessions: SessionStore; access: AccountAccess }) {}

  /** A member's rights with the context the rights editor needs. */
  async rights(actor: Actor, memberId: string) {
    const { db } = this.deps;
    const row = await memberOfActor(db, actor, memberId);
    const ctx = await rightsContextFor(db, { id: row.organization_id, depth: row.organization_depth }, actingAs(actor).isDeveloper);
    return {
      member_id: row.id,
      organization_id: row.organization_id,
      email_address: row.email,
      is_provider_organization: ctx.isProviderOrganization,
      organization_client_ids: [...ctx.organizationClientIds],
      rights: toRights(row.rights),
    };
  }

  /**
   * Change a member's rights: validated by docs/product.md, "Roles and rights" (409 invalid_rights), then by delegation (the actor
   * holds every right of the member and every right it changes), stored with the implications applied. When any right is taken
   * away, the member's access ends in the same transaction (their sessions and tokens carry the old rights: AccountAccess), and
   * their clients' back-channel logouts go through the outbox, in that transaction. Rights only added leave the access alone.
   */
  async changeRights(actor: Actor, memberId: string, input: Rights): Promise<void> {
    const { db, access } = this.deps;
    await withRefusalAudit(db, actor, () =>
      db.transaction(async (tx) => {
        await lockIfRootMember(tx, memberId);
        const { row, change } = await memberForChange(tx, actor, memberId, (row) => ({
          organizationId: row.organization_id,
          organizationPath: row.organization_path,
          action: 'member.rights.update',
          targetType: 'member',
          targetId: row.id,
          before: { email_address: row.email, rights: toRights(row.rights) },
          after: { rights: input },
        }));
        const before = toRights(row.rights);
        const ctx = await rightsContextFor(tx, { id: row.organization_id, depth: row.organization_depth }, actingAs(actor).isDeveloper);
        const rights = validateRights(input, ctx, before);
        change.after = { rights };
        const notHeld = changesNotHeld(delegatorOf(actor), before, rights);
        if (notHeld.length)
          throw new RefusedChange('cannot_grant_rights_not_held', change, { messages: notHeld, params: { rights: notHeld.join(', ') } });
        await assertKeepsRootUserManager(tx, row, rights, change);
        const isDeveloper = ctx.isProviderOrganization ? rights.partner_portal.developer === true : null;
        await q.updateRights(tx, row.id, row.user_id, rights, isDeveloper);
        const changedRights = !isDeepStrictEqual(before, rights);
        await recordChange(tx, actor, {
          ...change,
          events: changedRights ? [await memberEvent(tx, 'member.updated', row.user_id, { changed: ['rights'] })] : [],
        });
        if (rightsTakenAway(before, rights)) await access.revokeAll(tx, row.user_id);
      }),
    );
  }

  /** Remove one member of an organization (removeIn), ending all their access as removeMany does. */
  async remove(actor: Actor, organizationId: string, memberId: string): Promise<void> {
    const { db } = this.deps;
    await withRefusalAudit(db, actor, () => db.transaction((tx) => this.removeIn(tx, actor, organizationId, memberId)));
  }

  /**
   * Remove a member of an organization in the caller's transaction, whoever the actor is (a
   * userManager, a service account, a directory's DELETE): in the actor's subtree, not the actor,
   * holding no right the actor lacks, not the root organization's last active user manager (each
   * refusal a RefusedChange, which the caller audits once the transaction has rolled back). Their
   * portal sessions end, everything the OpenID provider issued to them is revoked (back-channel
   * logouts through the outbox), then the user and the membership go; audited, and announced
   * (member.removed). Irreversible.
   */
  async removeIn(tx: Queryable, actor: Actor, organizationId: string, memberId: string): Promise<void> {
    const { sessions, access } = this.deps;
    await lockIfRootMember(tx, memberId);
    const row = await memberOfActor(tx, actor, memberId, true);
    if (row.organization_id !== organizationId) throw new AppError('unknown_member');
    if (row.user_id === userIdOf(actor)) throw new AppError('cannot_remove_yourself');
    const rights = toRights(row.rights);
    const change: AuditChange = {
      organizationId: row.organization_id,
      organizationPath: row.organization_path,
      action: 'member.remove',
      targetType: 'member',
      targetId: row.id,
      before: { email_address: row.email, user_id: row.user_id, rights },
    };
    assertCanManageMember(actor, rights, change);
    await assertKeepsRootUserManager(tx, row, null, change);
    await sessions.endAllForUser(row.user_id, tx);
    await access.revokeAll(tx, row.user_id);
    await q.deleteUser(tx, row.user_id);
    await recordChange(tx, actor, {
      ...change,
      events: [
        {
          type: 'member.removed',
          organization: { id: row.organization_id, path: row.organization_path },
          data: { member_id: row.id, user_id: row.user_id, email_address: row.email },
        },
      ],
    });
  }

  /**
   * Deactivate (`active` false) or reactivate a member in the caller's transaction (a directory's
   * `active`, modules/scim): the same checks as a removal (subtree, delegation; a deactivation
   * keeps the root organization an active user manager), then members/activation.ts changes it —
   * a deactivation ends every access at once — and it is recorded (recordChange): audited with the
   * caller's record (the member as the caller sees it), announced as member.deactivated or
   * member.reactivated. False when nothing changed (already so).
   */
  async setActiveIn(tx: Queryable, actor: Actor, memberId: string, active: boolean, change: AuditChange): Promise<boolean> {
    const { access } = this.deps;
    await lockIfRootMember(tx, memberId);
    const row = await memberOfActor(tx, actor, memberId, true);
    if (row.user_id === userIdOf(actor)) throw new AppError('forbidden', { detail: 'You cannot deactivate yourself' });
    assertCanManageMember(actor, toRights(row.rights), change);
    const member = { membershipId: row.id, userId: row.user_id };
    if (!active) await assertKeepsRootUserManager(tx, row, null, change);
    const changed = active ? await reactivateMember(tx, member) : (await deactivateMember(tx, access, member)) !== null;
    if (changed)
      await recordChange(tx, actor, {
        ...change,
        events: [await activationEvent(tx, active ? 'member.reactivated' : 'member.deactivated', row.user_id)],
      });
    return changed;
  }

  /**
   * Remove members at once, all or none: each with removeIn's checks (the same rules as removing
   * one), each audited. Their portal sessions end, everything the OpenID provider issued to them is
   * revoked, and their clients' back-channel logouts are written to the outbox with the removal. A refused
   * member refuses the whole request; its id is in the problem's params (member_id).
   */
  async removeMany(actor: Actor, memberIds: string[]): Promise<{ removed: number }> {
    const { db } = this.deps;
    requireRole(actor, 'user');
    // a refusal is audited outside the transaction it rolls back
    let refused: RefusedChange | undefined;
    await db
      .transaction(async (tx) => {
        for (const memberId of memberIds) {
          try {
            const row = await q.findMembership(tx, memberId);
            if (!row) throw new AppError('unknown_member');
            await this.removeIn(tx, actor, row.organization_id, memberId);
          } catch (err) {
            if (err instanceof RefusedChange) refused = err;
            if (err instanceof AppError && memberIds.length > 1) {
              throw new AppError(err.key, {
                detail: err.message,
                params: { ...err.params, member_id: memberId },
                ...(err.messages ? { messages: err.messages } : {}),
              });
            }
            throw err;
          }
        }
      })
      .catch(async (err: unknown) => {
        if (refused) await auditRefusal(db, actor, refused);
        throw err;
      });
    return { removed: memberIds.length };
  }

  /**
   * A userManager signs a member of their subtree out everywhere (audited); not themselves (409),
   * not a member holding a right they lack (403, the refusal audited, like every change to a member).
   */
  async signOut(actor: Actor, memberId: string): Promise<void> {
    const { db, access } = this.deps;
    await withRefusalAudit(db, actor, () =>
      db.transaction(async (tx) => {
        const row = await memberOfActor(tx, actor, memberId, true);
        if (row.user_id === userIdOf(actor)) throw new AppError('invalid_operation', { detail: 'Use the list of your own sessions' });
        const change: AuditChange = {
          organizationId: row.organization_id,
          organizationPath: row.organization_path,
          action: 'member.sign_out',
          targetType: 'member',
          targetId: row.id,
          before: { email_address: row.email },
        };
        assertCanManageMember(actor, toRights(row.rights), change);
        await access.revokeAll(tx, row.user_id);
        await recordChange(tx, actor, change);
      }),
    );
  }
}
