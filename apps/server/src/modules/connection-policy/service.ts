import type { ConnectionPolicy } from '@partner-portal/contracts';
import type { Database } from '../../db/client.js';
import { personOf, type Actor } from '../../http/session.js';
import { organizationChange } from '../audit/service.js';
import { recordChange } from '../webhooks/changes.js';
import { organizationForActor } from '../scope/service.js';
import * as q from './queries.js';

/**
 * The connection policy of an organization (the operating contract, "Setup links for a dealer's
 * IT person"): whether the organizations below it may connect their own identity providers and
 * directories. Set by the managers of the organization (organizationManagers of it or an
 * ancestor), people only; read by any manager of it. rule.ts applies it.
 */

/**
 * The policy as seen from an organization (`rows`: the settings at or above it, the nearest
 * first). A false anywhere at or above it holds for everything below (the highest such one is
 * where it is set); otherwise the nearest setting (true), otherwise none (true).
 */
export function policyOf(organizationId: string, rows: q.PolicyRow[]): ConnectionPolicy {
  const above = rows.filter((r) => r.organization_id !== organizationId);
  const forbidding = rows.filter((r) => !r.sub_organizations_may_connect);
  const applying = forbidding.length ? forbidding[forbidding.length - 1] : rows[0];
  return {
    sub_organizations_may_connect: applying?.sub_organizations_may_connect ?? true,
    may_connect: !above.some((r) => !r.sub_organizations_may_connect),
    set_by: applying?.organization_id ?? null,
    set_by_name: applying?.organization_name ?? null,
  };
}

export class ConnectionPolicies {
  constructor(private readonly deps: { db: Database }) {}

  /** GET: the policy as it applies to the organization and below it (any manager of it). */
  async get(actor: Actor, organizationId: string): Promise<ConnectionPolicy> {
    const { db } = this.deps;
    const { org } = await organizationForActor(db, actor, organizationId, { role: 'any' });
    return policyOf(org.id, await q.policiesAtOrAbove(db, org.path));
  }

  /** PUT: set what the organization allows those below it (organizationManagers of it or above; a person). */
  async set(actor: Actor, organizationId: string, mayConnect: boolean): Promise<void> {
    const { db } = this.deps;
    const person = personOf(actor);
    await db.transaction(async (tx) => {
      const { org } = await organizationForActor(tx, actor, organizationId, { role: 'organization', forUpdate: true });
      const own = (await q.policiesAtOrAbove(tx, org.path)).find((r) => r.organization_id === org.id);
      if (own?.sub_organizations_may_connect === mayConnect) return;
      await q.upsertPolicy(tx, org.id, mayConnect, person.id);
      await recordChange(
        tx,
        actor,
        organizationChange(
          org,
          'organization.connection_policy.set',
          { sub_organizations_may_connect: own?.sub_organizations_may_connect ?? null },
          { sub_organizations_may_connect: mayConnect },
        ),
      );
    });
  }
}
