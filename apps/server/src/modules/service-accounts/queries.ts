import { serviceAccountRights } from '@partner-portal/contracts';
import type { Queryable } from '../../db/client.js';
import type { BearerLookups } from '../../http/bearer.js';

/** A service account as the service reads it (migration 0070); never its secret's hash. */
export interface ServiceAccountRow {
  id: string;
  organization_id: string;
  name: string;
  client_id: string;
  user_manager: boolean;
  organization_manager: boolean;
  created_at: Date | string;
  last_used_at: Date | string | null;
}

const COLUMNS =
  'sa.id, sa.organization_id, sa.name, sa.client_id, sa.user_manager, sa.organization_manager, sa.created_at, sa.last_used_at';

export async function insertServiceAccount(
  db: Queryable,
  account: {
    id: string;
    organizationId: string;
    name: string;
    clientId: string;
    secretHash: string;
    userManager: boolean;
    organizationManager: boolean;
    createdBy: string | null;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO service_accounts (id, organization_id, name, client_id, secret_hash, user_manager, organization_manager, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      account.id,
      account.organizationId,
      account.name,
      account.clientId,
      account.secretHash,
      account.userManager,
      account.organizationManager,
      account.createdBy,
    ],
  );
}

/** The organization's own service accounts, oldest first. */
export async function listServiceAccounts(db: Queryable, organizationId: string): Promise<ServiceAccountRow[]> {
  const { rows } = await db.query<ServiceAccountRow>(
    `SELECT ${COLUMNS} FROM service_accounts sa WHERE sa.organization_id = $1 ORDER BY sa.created_at, sa.id`,
    [organizationId],
  );
  return rows;
}

/** One service account of the organization, locked for the caller's transaction. */
export async function findServiceAccountForUpdate(db: Queryable, organizationId: string, id: string): Promise<ServiceAccountRow | null> {
  const { rows } = await db.query<ServiceAccountRow>(
    `SELECT ${COLUMNS} FROM service_accounts sa WHERE sa.id = $1 AND sa.organization_id = $2 FOR UPDATE`,
    [id, organizationId],
  );
  return rows[0] ?? null;
}

/** The webhooks the account made (migration 0073), which go with it: for its deletion's audit entry. */
export async function webhooksOf(db: Queryable, id: string): Promise<{ id: string; url: string }[]> {
  const { rows } = await db.query<{ id: string; url: string }>(
    'SELECT id, url FROM webhooks WHERE service_account_id = $1 ORDER BY created_at, id',
    [id],
  );
  return rows;
}

/**
 * Delete a service account with its tokens (its client leaves every instance's cache: migration
 * 0070) and its webhooks (their rows cascade: migration 0073).
 */
export async function deleteServiceAccount(db: Queryable, id: string, clientId: string): Promise<void> {
  await db.query('DELETE FROM service_accounts WHERE id = $1', [id]);
  await db.query(`DELETE FROM oidc_payloads WHERE model = 'ClientCredentials' AND payload->>'clientId' = $1`, [clientId]);
}

interface PrincipalRow {
  id: string;
  name: string;
  client_id: string;
  user_manager: boolean;
  organization_manager: boolean;
  last_used_at: Date | string | null;
  organization_id: string;
  organization_path: string;
  organization_depth: number;
}

/**
 * The bearer check's reads of http/bearer.ts: the account of a client id with its organization as
 * it is now (one primary-key lookup per request), and its last use.
 */
export function serviceAccountLookups(db: Queryable): Pick<BearerLookups, 'account' | 'touch'> {
  return {
    async account(clientId) {
      const { rows } = await db.query<PrincipalRow>(
        `SELECT sa.id, sa.name, sa.client_id, sa.user_manager, sa.organization_manager, sa.last_used_at,
                o.id AS organization_id, o.path AS organization_path, o.depth AS organization_depth
         FROM service_accounts sa JOIN organizations o ON o.id = sa.organization_id
         WHERE sa.client_id = $1`,
        [clientId],
      );
      const row = rows[0];
      if (!row) return null;
      return {
        principal: {
          id: row.id,
          name: row.name,
          clientId: row.client_id,
          organizationId: row.organization_id,
          organizationPath: row.organization_path,
          isProviderOrganization: row.organization_depth === 0,
          rights: serviceAccountRights(row),
          userManager: row.user_manager,
          organizationManager: row.organization_manager,
          isDeveloper: false,
        },
        lastUsedAt: row.last_used_at === null ? null : new Date(row.last_used_at),
      };
    },
    async touch(accountId) {
      await db.query('UPDATE service_accounts SET last_used_at = now() WHERE id = $1', [accountId]);
    },
  };
}
