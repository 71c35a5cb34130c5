import { randomUUID } from 'node:crypto';
import { rightsNotHeld, serviceAccountRights, type ServiceAccount, type ServiceAccountCreated } from '@partner-portal/contracts';
import type { Database } from '../../db/client.js';
import { AppError } from '../../http/problem.js';
import { actingAs, hashSecret, newSecret, personOf, type Actor } from '../../http/session.js';
import { RefusedChange, withRefusalAudit, type AuditChange } from '../audit/service.js';
import { recordChange } from '../webhooks/changes.js';
import { organizationForActor } from '../scope/service.js';
import * as q from './queries.js';

/**
 * Service accounts (docs/integrations.md, "Service accounts"): the provider's applications call
 * /api as machines, each account acting on its organization's subtree with the manager rights it
 * was given (http/bearer.ts makes it the actor; the authorization model is scope/access.ts, the
 * same as a person's).
 *
 * Who manages them: a person who is a manager (either role) of the organization's subtree
 * (organizationForActor), and never beyond their own rights: an account is created only with
 * rights the person holds (contracts delegation.ts, 403 cannot_grant_rights_not_held), and deleted
 * only by someone who holds every right it has (403 cannot_delete_service_account_with_more_rights),
 * as for members. A service account manages no service accounts (403 service_account_not_allowed):
 * a leaked token cannot make itself a credential that outlives the account's deletion.
 *
 * The secret (256 random bits) is answered once, at creation, and kept only as its SHA-256; the
 * provider compares it (oidc/service-account-clients.ts). Every change is audited, refusals too.
 *
 * What an account makes that acts on its own belongs to it and ends with it: its webhooks
 * (migration 0073) are deleted with it, and the deletion's audit entry lists them
 * (`removed_with_it`, as an organization's deletion lists what went with it).
 */

function toServiceAccount(row: q.ServiceAccountRow): ServiceAccount {
  return {
    id: row.id,
    name: row.name,
    client_id: row.client_id,
    organization_id: row.organization_id,
    user_manager: row.user_manager,
    organization_manager: row.organization_manager,
    created_at: new Date(row.created_at).toISOString(),
    last_used_at: row.last_used_at === null ? null : new Date(row.last_used_at).toISOString(),
  };
}

/** The boxes of `rights` that the actor does not hold (contracts delegation.ts). */
function notHeldBy(actor: Actor, account: { user_manager: boolean; organization_manager: boolean }): string[] {
  const acting = actingAs(actor);
  return rightsNotHeld({ rights: acting.rights, isDeveloper: acting.isDeveloper }, serviceAccountRights(account));
}

export class ServiceAccounts {
  constructor(private readonly deps: { db: Database }) {}

  /** Create a service account of the organization; answers its client id and secret, the secret this once. */
  async create(
    actor: Actor,
    organizationId: string,
    input: { name: string; user_manager: boolean; organization_manager: boolean },
  ): Promise<ServiceAccountCreated> {
    personOf(actor);
    const { db } = this.deps;
    return withRefusalAudit(db, actor, () =>
      db.transaction(async (tx) => {
        const { org } = await organizationForActor(tx, actor, organizationId, { role: 'any' });
        const id = randomUUID();
        const account = {
          name: input.name,
          client_id: `sa.${id}`,
          user_manager: input.user_manager,
          organization_manager: input.organization_manager,
        };
        const change: AuditChange = {
          organizationId: org.id,
          organizationPath: org.path,
          action: 'service_account.create',
          targetType: 'service_account',
          targetId: id,
          after: account,
        };
        const missing = notHeldBy(actor, account);
        if (missing.length)
          throw new RefusedChange('cannot_grant_rights_not_held', change, { messages: missing, params: { rights: missing.join(', ') } });
        const secret = newSecret();
        await q.insertServiceAccount(tx, {
          id,
          organizationId: org.id,
          name: account.name,
          clientId: account.client_id,
          secretHash: hashSecret(secret),
          userManager: account.user_manager,
          organizationManager: account.organization_manager,
          createdBy: actor.user?.id ?? null,
        });
        await recordChange(tx, actor, change);
        return { id, client_id: account.client_id, client_secret: secret };
      }),
    );
  }

  /** The organization's own service accounts (no secrets). */
  async list(actor: Actor, organizationId: string): Promise<ServiceAccount[]> {
    personOf(actor);
    const { db } = this.deps;
    const { org } = await organizationForActor(db, actor, organizationId, { role: 'any' });
    return (await q.listServiceAccounts(db, org.id)).map(toServiceAccount);
  }

  /**
   * Delete a service account of the organization: its tokens stop at once (http/bearer.ts looks
   * the account up at every request), and its webhooks go with it.
   */
  async delete(actor: Actor, organizationId: string, serviceAccountId: string): Promise<void> {
    personOf(actor);
    const { db } = this.deps;
    await withRefusalAudit(db, actor, () =>
      db.transaction(async (tx) => {
        const { org } = await organizationForActor(tx, actor, organizationId, { role: 'any' });
        const row = await q.findServiceAccountForUpdate(tx, org.id, serviceAccountId);
        if (!row) throw new AppError('unknown_service_account');
        // read with the account's row held: a webhook it is making meanwhile is committed (and listed) first
        const webhooks = await q.webhooksOf(tx, row.id);
        const change: AuditChange = {
          organizationId: org.id,
          organizationPath: org.path,
          action: 'service_account.delete',
          targetType: 'service_account',
          targetId: row.id,
          before: {
            name: row.name,
            client_id: row.client_id,
            user_manager: row.user_manager,
            organization_manager: row.organization_manager,
            ...(webhooks.length ? { removed_with_it: { webhooks } } : {}),
          },
        };
        const missing = notHeldBy(actor, row);
        if (missing.length)
          throw new RefusedChange('cannot_delete_service_account_with_more_rights', change, {
            messages: missing,
            params: { rights: missing.join(', ') },
          });
        await q.deleteServiceAccount(tx, row.id, row.client_id);
        await recordChange(tx, actor, change);
      }),
    );
  }
}
