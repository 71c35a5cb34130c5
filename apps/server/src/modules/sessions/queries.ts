import type { Queryable } from '../../db/client.js';

/** SQL of sessions: a user's portal sessions, and what the OpenID provider keeps for an account. */

export interface SessionListRow {
  id_hash: string;
  user_agent: string | null;
  ip_address: string | null;
  created_at: Date | string;
  last_seen_at: Date | string;
}

export async function listLiveSessions(q: Queryable, userId: string): Promise<SessionListRow[]> {
  const { rows } = await q.query<SessionListRow>(
    `SELECT id_hash, user_agent, ip_address, created_at, last_seen_at FROM sessions
     WHERE user_id = $1 AND expires_at > now() ORDER BY last_seen_at DESC, created_at DESC`,
    [userId],
  );
  return rows;
}

/** End one of a user's sessions; false when the user has no such session. */
export async function deleteSessionOf(q: Queryable, userId: string, idHash: string): Promise<boolean> {
  const result = await q.query('DELETE FROM sessions WHERE user_id = $1 AND id_hash = $2', [userId, idHash]);
  return result.rowCount > 0;
}

export async function deleteSessionsOf(q: Queryable, userId: string, exceptIdHash: string | null): Promise<number> {
  const result = await q.query('DELETE FROM sessions WHERE user_id = $1 AND id_hash IS DISTINCT FROM $2', [userId, exceptIdHash]);
  return result.rowCount;
}

export interface ProviderSessionPayload {
  accountId?: string;
  authorizations?: Record<string, { sid?: string; grantId?: string; persistsLogout?: boolean }>;
}

/** The OpenID provider's sessions of an account (served by oidc_payloads_account_idx). */
export async function providerSessionsOf(q: Queryable, userId: string): Promise<ProviderSessionPayload[]> {
  const { rows } = await q.query<{ payload: ProviderSessionPayload }>(
    `SELECT payload FROM oidc_payloads WHERE model = 'Session' AND payload ? 'accountId' AND payload->>'accountId' = $1`,
    [userId],
  );
  return rows.map((r) => r.payload);
}

/** Everything the provider issued to an account: its sessions, grants, codes, access and refresh tokens. */
export async function deleteProviderArtifactsOf(q: Queryable, userId: string): Promise<number> {
  const result = await q.query(`DELETE FROM oidc_payloads WHERE payload ? 'accountId' AND payload->>'accountId' = $1`, [userId]);
  return result.rowCount;
}
