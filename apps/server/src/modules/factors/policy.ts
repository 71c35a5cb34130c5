import type { SecondFactorPolicy } from '@partner-portal/contracts';
import type { Database } from '../../db/client.js';
import { AppError } from '../../http/problem.js';
import { organizationChange } from '../audit/service.js';
import { recordChange } from '../webhooks/changes.js';
import type { Actor } from '../../http/session.js';
import { isPathInSubtree } from '../scope/access.js';
import type { AccountAccess } from '../sessions/service.js';
import * as q from './queries.js';
import { organizationForActor } from '../scope/service.js';

/**
 * The second-factor policy follows the organization tree (docs/second-factors.md): a requirement
 * set on an organization holds for its whole subtree. Below it, a sub-organization may add its own
 * requirement (tighten) but cannot lift an inherited one (loosen). A requirement is lifted only
 * on the organization where it was set, by a manager at the level that set it or above. The
 * provider's administrators require it everywhere by setting it on the root organization.
 *
 * Setting a requirement ends, in its transaction, what the members below it hold from
 * sign-ins without a second factor: their single-factor portal sessions (except the manager's own)
 * and their clients' provider sessions, grants and tokens that a second factor did not prove
 * (AccountAccess.revokeSingleFactor); the clients' back-channel logouts are written to the outbox in it.
 */

function toPolicy(organizationId: string, holding: q.PolicyRow[]): SecondFactorPolicy {
  const here = holding.find((p) => p.organization_id === organizationId);
  const inherited = holding.find((p) => p.organization_id !== organizationId);
  return {
    organization_id: organizationId,
    required: holding.length > 0,
    set_here: here !== undefined,
    inherited_from: inherited
      ? {
          organization_id: inherited.organization_id,
          organization_name: inherited.organization_name,
          organization_path: inherited.organization_path,
        }
      : null,
  };
}

export class FactorPolicy {
  constructor(private readonly deps: { db: Database; access: AccountAccess }) {}

  /** The effective policy of an organization and where it comes from; for the managers of its subtree. */
  async get(actor: Actor, organizationId: string): Promise<SecondFactorPolicy> {
    const { org } = await organizationForActor(this.deps.db, actor, organizationId, { role: 'any' });
    return toPolicy(org.id, await q.policiesAbove(this.deps.db, org.path));
  }

  /** Require (or lift) a second factor for an organization's subtree; organizationManagers of that subtree. */
  async set(actor: Actor, organizationId: string, required: boolean): Promise<SecondFactorPolicy> {
    const { db, access } = this.deps;
    const { member, org } = await organizationForActor(db, actor, organizationId, { role: 'organization' });
    return db.transaction(async (tx) => {
      const holding = await q.policiesAbove(tx, org.path);
      const here = holding.find((p) => p.organization_id === org.id);
      if (required && !here) {
        await q.insertPolicy(tx, org.id, member.organizationId, actor.user?.id ?? null);
        await q.endSessionsWithoutSecondFactor(tx, org.path, actor.user?.sessionIdHash ?? null);
        await access.revokeSingleFactor(tx, await q.membersBelow(tx, org.path));
        await recordChange(
          tx,
          actor,
          organizationChange(org, 'organization.second_factor_policy.require', { required: holding.length > 0 }, { required: true }),
        );
      }
      if (!required) {
        if (holding.some((p) => p.organization_id !== org.id)) throw new AppError('second_factor_policy_inherited');
        if (here) {
          if (here.set_by_organization_path && !isPathInSubtree(member.organizationPath, here.set_by_organization_path)) {
            throw new AppError('second_factor_policy_set_above');
          }
          await q.deletePolicy(tx, org.id);
          await recordChange(
            tx,
            actor,
            organizationChange(org, 'organization.second_factor_policy.lift', { required: true }, { required: false }),
          );
        }
      }
      return toPolicy(org.id, await q.policiesAbove(tx, org.path));
    });
  }
}
