import type { Queryable } from '../../db/client.js';
import { AppError } from '../../http/problem.js';
import type { Actor } from '../../http/actor.js';
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
 * A person the audit names who acts without a session, and so is no Actor (http/actor.ts): a user
 * accepting an invitation or joining through a connection, a visitor asking for access (no user
 * yet, named by the address they gave).
 */
export interface PersonWithoutSession {
  kind: 'person';
  userId: string | null;
  email: string;
  requestId: string | null;
}

/** Who an entry names: an actor, or a person without a session. */
export type AuditActor = Actor | PersonWithoutSession;

/** The name a directory's entries carry: "SCIM: <token name>", as the trail shows it. */
export function directoryName(tokenName: string): string {
  return `SCIM: ${tokenName}`;
}

/**
 * Who made a change as the audit log keeps it: its kind and id (actor_kind, actor_id), a user by
 * id and e-mail, a service account by id and name, a directory by its "SCIM: <name>" in place of
 * an e-mail and a name; a person in a support session as the member, with kind 'support', the
 * support session's id and the supporter.
 */
function whoOf(actor: AuditActor) {
  if (!('rights' in actor)) return { ...actor, id: actor.userId, serviceAccountId: null, name: null };
  const base = { kind: actor.kind, id: actor.id, requestId: actor.requestId };
  switch (actor.kind) {
    case 'person': {
      const person = { ...base, userId: actor.user.id, email: actor.user.email, serviceAccountId: null, name: null };
      const support = actor.supportedBy;
      if (!support) return person;
      // in a support session: the member acts, named with the supporter; the kind and id are the support session's
      const supporter = {
        userId: support.supporterUserId,
        email: support.supporterEmail,
        name: support.supporterName,
        organizationPath: support.supporterOrganizationPath,
      };
      return { ...person, kind: 'support' as const, id: support.id, supporter };
    }
    case 'service_account':
      return { ...base, userId: null, email: null, serviceAccountId: actor.serviceAccount.id, name: actor.serviceAccount.name };
    case 'directory': {
      const name = directoryName(actor.directory.name);
      return { ...base, userId: null, email: name, serviceAccountId: null, name };
    }
    case 'setup_link':
      return { ...base, userId: null, email: actor.setupLink.email, serviceAccountId: null, name: null };
    case 'job':
      return { ...base, userId: null, email: null, serviceAccountId: null, name: null };
  }
}

/**
 * Write an audit entry in the caller's transaction. A change is recorded by recordChange
 * (modules/webhooks/changes.ts: its entry and its events together), a refusal by auditRefusal; eslint
 * refuses this import anywhere else.
 */
export async function audit(tx: Queryable, actor: AuditActor, change: AuditChange): Promise<void> {
  const who = whoOf(actor);
  await insertAuditEntry(tx, {
    actorKind: who.kind,
    actorId: who.id,
    actorUserId: who.userId,
    actorEmail: who.email,
    actorServiceAccountId: who.serviceAccountId,
    actorName: who.name,
    requestId: who.requestId,
    supporter: 'supporter' in who ? who.supporter : null,
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
