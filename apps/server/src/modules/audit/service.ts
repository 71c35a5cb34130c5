import type { Database, Queryable } from '../../db/client.js';
import { AppError } from '../../http/problem.js';
import { assertInSubtree, requireRole, type Actor } from '../organizations/access.js';
import { findOrganizationById } from '../organizations/queries.js';
import { insertAuditEntry, listAuditEntries } from './queries.js';

export interface AuditChange {
  organizationId: string | null;
  organizationPath: string | null;
  action: string;
  targetType: string;
  targetId: string | null;
  before?: unknown;
  after?: unknown;
}

/** Record an administrative change, in the caller's transaction. */
export async function audit(tx: Queryable, actor: Actor | { userId: string | null; email: string | null; requestId: string | null }, change: AuditChange): Promise<void> {
  const who = 'user' in actor ? { userId: actor.user.id, email: actor.user.email, requestId: actor.requestId } : actor;
  await insertAuditEntry(tx, {
    actorUserId: who.userId,
    actorEmail: who.email,
    requestId: who.requestId,
    organizationId: change.organizationId,
    organizationPath: change.organizationPath,
    action: change.action,
    targetType: change.targetType,
    targetId: change.targetId,
    before: change.before,
    after: change.after,
  });
}

export const AUDIT_PAGE_SIZE = 50;

/** The audit entries of an organization's subtree, newest first, for its managers. */
export async function listAudit(db: Database, actor: Actor, organizationId: string | undefined, page: number) {
  const member = requireRole(actor, 'any');
  const org = await findOrganizationById(db, organizationId ?? member.organizationId);
  if (!org) throw new AppError('not_found');
  assertInSubtree(member, org.path);
  const { total, rows } = await listAuditEntries(db, org.path, AUDIT_PAGE_SIZE, (page - 1) * AUDIT_PAGE_SIZE);
  return {
    total,
    page,
    page_size: AUDIT_PAGE_SIZE,
    entries: rows.map((r) => ({
      id: String(r.id),
      occurred_at: new Date(r.occurred_at).toISOString(),
      actor_user_id: r.actor_user_id,
      actor_email: r.actor_email,
      organization_id: r.organization_id,
      organization_path: r.organization_path,
      action: r.action,
      target_type: r.target_type,
      target_id: r.target_id,
      before: r.before ?? null,
      after: r.after ?? null,
      request_id: r.request_id,
    })),
  };
}
