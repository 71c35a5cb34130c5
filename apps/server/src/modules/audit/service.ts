import type { Queryable } from '../../db/client.js';
import { AppError } from '../../http/problem.js';
import type { Actor } from '../../http/session.js';
import { insertAuditEntry, type AuditChange } from './queries.js';

/**
 * The audit log (docs/security.md, "Delegated administration"). Audit sits below the modules that
 * change things: they hand it a plain change record (AuditChange); it imports none of them.
 */

export type { AuditChange };

/** A change of an organization itself (its settings, apps, policy…), recorded on that organization. */
export function organizationChange(org: { id: string; path: string }, action: string, before?: unknown, after?: unknown): AuditChange {
  return { organizationId: org.id, organizationPath: org.path, action, targetType: 'organization', targetId: org.id, before, after };
}

/**
 * Who an entry names: a signed-in user or a service account (Actor), or an actor given by its
 * parts — a user who is not signed in (accepting an invitation), or one that is no user (a
 * directory's SCIM token), whose `name` the entry keeps.
 */
export type AuditActor = Actor | { userId: string | null; email: string | null; requestId: string | null; name?: string | null };

/** Who made a change as the audit log keeps it: a user (by id and e-mail), a service account (by id and name), or an actor given by its parts. */
function whoOf(actor: AuditActor) {
  if (!('user' in actor)) return { ...actor, serviceAccountId: null, name: actor.name ?? null };
  if (actor.user === null)
    return {
      userId: null,
      email: null,
      serviceAccountId: actor.serviceAccount.id,
      name: actor.serviceAccount.name,
      requestId: actor.requestId,
    };
  return { userId: actor.user.id, email: actor.user.email, serviceAccountId: null, name: null, requestId: actor.requestId };
}

/** Record an administrative change, in the caller's transaction. */
export async function audit(tx: Queryable, actor: AuditActor, change: AuditChange): Promise<void> {
  const who = whoOf(actor);
  await insertAuditEntry(tx, {
    actorUserId: who.userId,
    actorEmail: who.email,
    actorServiceAccountId: who.serviceAccountId,
    actorName: who.name,
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

/**
 * A refused administrative change that is itself audited (docs/security.md, "Delegated
 * administration"): thrown inside the change's transaction, which rolls back; `withRefusalAudit`
 * then writes the refusal on its own and answers the error.
 */
export class RefusedChange extends AppError {
  readonly change: AuditChange;

  constructor(
    key: ConstructorParameters<typeof AppError>[0],
    change: AuditChange,
    options: ConstructorParameters<typeof AppError>[1] = {},
  ) {
    super(key, options);
    this.change = {
      ...change,
      action: `${change.action}.refused`,
      after: { refused: key, ...(options.messages ? { rights: options.messages } : {}), attempted: change.after ?? null },
    };
  }
}

/** Write a refusal to the audit log, outside the rolled-back transaction of the refused change. */
export async function auditRefusal(db: Queryable, actor: AuditActor, refusal: RefusedChange): Promise<void> {
  await audit(db, actor, refusal.change);
}

/** Run an administrative change; a RefusedChange it throws is written to the audit log, then rethrown. */
export async function withRefusalAudit<T>(db: Queryable, actor: AuditActor, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof RefusedChange) await auditRefusal(db, actor, err);
    throw err;
  }
}
