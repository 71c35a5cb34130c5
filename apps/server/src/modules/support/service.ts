import {
  displayName,
  isOrganizationManager,
  isUserManager,
  toRights,
  type OwnSupportSessions,
  type SupportAccess,
  type SupportSessionCreated,
  type SupportSessionRequest,
} from '@partner-portal/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.js';
import { AppError } from '../../http/problem.js';
import { personOf, type Actor, type SessionStore } from '../../http/session.js';
import type { Mailer } from '../mail/mailer.js';
import { organizationChange, withRefusalAudit, type AuditChange } from '../audit/service.js';
import { recordChange } from '../webhooks/changes.js';
import { assertCanManageMember } from '../members/service.js';
import { isPathInSubtree, requireRole } from '../scope/access.js';
import { organizationForActor } from '../scope/service.js';
import { supportSessionStartedEmail } from './messages.js';
import * as q from './queries.js';

/**
 * Support access and support sessions (the operating contract, "Support access"; docs/security.md,
 * "Support sessions").
 *
 * Support access is an organization's consent, inherited down the tree like the second-factor
 * policy, where a child may only narrow it: support may act on an organization's members when some
 * organization of its chain (itself or an ancestor) allows it and none refuses. A child that allows
 * it below an ancestor that refuses is stored and shown as overridden (`effective` false,
 * `set_by` the refusing ancestor): it takes effect if the ancestor allows it later.
 *
 * A support session: a userManager of a strict ancestor of the member's organization, who holds
 * every right the member holds (members' assertCanManageMember, the rule of changing or removing a
 * member), where support access is effectively allowed, acts as the member for 5–60 minutes. It
 * runs as a portal session of the member that names the support session and the supporter's
 * session (http/session.ts startSupport), so the request's actor is the member (http/actor.ts
 * `supportedBy`), authorised through scope/ as the member.
 */
export class SupportSessions {
  constructor(private readonly deps: { db: Database; sessions: SessionStore; mailer: Mailer; publicUrl: string }) {}

  /** The organization's own setting, its effective consent and where that comes from; for the managers of its subtree. */
  async access(actor: Actor, organizationId: string): Promise<SupportAccess> {
    const { org } = await organizationForActor(this.deps.db, actor, organizationId, { role: 'any' });
    return accessOf(org.id, await q.supportAccessAbove(this.deps.db, org.path));
  }

  /** Allow or refuse support access for an organization's subtree: organizationManagers of it or an ancestor, people only. */
  async setAccess(actor: Actor, organizationId: string, allowed: boolean): Promise<void> {
    const { db } = this.deps;
    const user = personOf(actor);
    const { org } = await organizationForActor(db, actor, organizationId, { role: 'organization' });
    await db.transaction(async (tx) => {
      const before = await q.setSupportAccess(tx, org.id, allowed, user.id);
      if (before !== allowed)
        await recordChange(tx, actor, organizationChange(org, 'support_access.update', { allowed: before ?? false }, { allowed }));
    });
  }

  /**
   * Make a support session for a member (not started: its `url`, followed in the caller's browser,
   * starts it). Order of checks: a person (403 service_account_not_allowed) not in a support session
   * (403 not_during_support_session), a userManager (403), the member (404 unknown_member), never
   * one who may manage the caller's organization (403 support_member_manages_you), in the caller's
   * subtree below the caller's own organization (403), consent (403 support_access_not_allowed),
   * every right the member holds (403 cannot_manage_member_with_more_rights, audited).
   */
  async create(actor: Actor, memberId: string, input: SupportSessionRequest): Promise<SupportSessionCreated> {
    const { db, publicUrl } = this.deps;
    const user = personOf(actor);
    if (actor.kind === 'person' && actor.supportedBy) throw new AppError('not_during_support_session');
    const manager = requireRole(actor, 'user');
    const member = await q.findSupportedMember(db, memberId);
    if (!member) throw new AppError('unknown_member');
    const memberRights = toRights(member.rights);
    const managesCaller =
      (isUserManager(memberRights) || isOrganizationManager(memberRights)) &&
      isPathInSubtree(member.organization_path, manager.organizationPath);
    if (managesCaller) throw new AppError('support_member_manages_you');
    if (!isPathInSubtree(manager.organizationPath, member.organization_path) || member.organization_path === manager.organizationPath)
      throw new AppError('forbidden');
    const consent = accessOf(member.organization_id, await q.supportAccessAbove(db, member.organization_path));
    if (!consent.effective) throw new AppError('support_access_not_allowed');
    const change: AuditChange = {
      organizationId: member.organization_id,
      organizationPath: member.organization_path,
      action: 'support_session.create',
      targetType: 'member',
      targetId: member.id,
      after: { reason: input.reason, minutes: input.minutes },
    };
    return withRefusalAudit(db, actor, () =>
      db.transaction(async (tx) => {
        assertCanManageMember(actor, memberRights, change);
        const created = await q.insertSupportSession(tx, {
          memberUserId: member.user_id,
          memberOrganizationId: member.organization_id,
          supporterUserId: user.id,
          supporterEmail: user.email,
          supporterName: displayName(user.firstName, user.lastName, user.email),
          supporterOrganizationId: manager.organizationId,
          supporterSessionIdHash: user.sessionIdHash,
          reason: input.reason,
          minutes: input.minutes,
        });
        await recordChange(tx, actor, { ...change, after: { ...input, support_session_id: created.id } });
        return { id: created.id, url: `${publicUrl}/api/support-sessions/${created.id}/start` };
      }),
    );
  }

  /**
   * Start a support session in the browser of the session that made it (once, before its time runs
   * out): the browser becomes the member's for the time left; the member is told by e-mail.
   */
  async start(request: FastifyRequest, reply: FastifyReply, actor: Actor, id: string): Promise<void> {
    const { db, sessions, mailer } = this.deps;
    const user = personOf(actor);
    if (actor.kind === 'person' && actor.supportedBy) throw new AppError('not_during_support_session');
    await db.transaction(async (tx) => {
      const row = await q.findSupportSession(tx, id, { forUpdate: true });
      // only the browser (the portal session) that made it starts it
      if (!row || row.supporter_user_id !== user.id || row.supporter_session_id_hash !== user.sessionIdHash)
        throw new AppError('unknown_support_session');
      if (row.started_at || row.ended_at || row.seconds_left < 1) throw new AppError('support_session_ended');
      await q.markStarted(tx, row.id);
      await recordChange(tx, actor, supportChange(row, 'support_session.start'));
      const message = supportSessionStartedEmail({
        language: row.member_language_code,
        firstName: row.member_first_name || null,
        supporterName: row.supporter_name,
        supporterEmail: row.supporter_email,
        minutes: row.minutes,
        reason: row.reason,
      });
      await mailer.enqueue({ to: row.member_email, ...message, kind: 'support-session-started' }, { tx });
      // last: the browser's cookies change only with everything else written
      await sessions.startSupport(
        request,
        reply,
        row.member_user_id,
        { supportSessionId: row.id, supporterSessionIdHash: user.sessionIdHash, ttlSeconds: Math.floor(row.seconds_left) },
        tx,
      );
    });
  }

  /**
   * End a support session: by the supporter, from within it (the banner's End) or from their own
   * session. Its portal session ends; a browser in it is given back the supporter's own session.
   */
  async end(request: FastifyRequest, reply: FastifyReply, actor: Actor, id: string): Promise<void> {
    const { db, sessions } = this.deps;
    const user = personOf(actor);
    const inIt = actor.kind === 'person' && actor.supportedBy?.id === id;
    const memberUserId = await db.transaction(async (tx) => {
      const row = await q.findSupportSession(tx, id, { forUpdate: true });
      if (!row || !(inIt || row.supporter_user_id === user.id)) throw new AppError('unknown_support_session');
      await q.endSupportSession(tx, row.id);
      if (!row.ended_at) await recordChange(tx, actor, supportChange(row, 'support_session.end'));
      return row.member_user_id;
    });
    sessions.cache?.invalidate([memberUserId]);
    if (inIt) sessions.leaveSupport(request, reply);
  }

  /** The signed-in user's support sessions (their profile): who, when, how long, why. */
  async own(actor: Actor): Promise<OwnSupportSessions> {
    const user = personOf(actor);
    const rows = await q.listOwnSupportSessions(this.deps.db, user.id);
    return {
      sessions: rows.map((r) => ({
        id: r.id,
        supporter_name: r.supporter_name,
        supporter_email: r.supporter_email,
        reason: r.reason,
        minutes: r.minutes,
        created_at: new Date(r.created_at).toISOString(),
        started_at: r.started_at ? new Date(r.started_at).toISOString() : null,
        ended_at: r.ended_at ? new Date(r.ended_at).toISOString() : null,
      })),
    };
  }
}

/** An entry about a support session, on the member's organization. */
function supportChange(row: q.SupportSessionRow, action: string): AuditChange {
  return {
    organizationId: row.member_organization_id,
    organizationPath: row.member_organization_path,
    action,
    targetType: 'member',
    targetId: row.member_id,
    after: { support_session_id: row.id, supporter_email: row.supporter_email },
  };
}

/**
 * The consent of an organization from the settings of its chain (root first): allowed where some
 * organization of the chain allows it and none refuses; `set_by` is the highest that refuses, else
 * the nearest that allows, else null (never set: the default, refused).
 */
export function accessOf(organizationId: string, chain: q.SupportAccessRow[]): SupportAccess {
  const own = chain.find((r) => r.organization_id === organizationId);
  const refusing = chain.find((r) => !r.allowed);
  const allowing = [...chain].reverse().find((r) => r.allowed);
  const decides = refusing ?? allowing ?? null;
  return {
    allowed: own?.allowed ?? false,
    effective: !refusing && allowing !== undefined,
    set_by: decides?.organization_id ?? null,
    set_by_name: decides?.organization_name ?? null,
  };
}
