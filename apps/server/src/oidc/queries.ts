import type { Queryable } from '../db/client.js';

/** Whether a portal session is persistent ("remember me"), for the provider session. */
export async function sessionIsPersistent(db: Queryable, sessionIdHash: string): Promise<boolean> {
  const { rows } = await db.query<{ persistent: boolean }>('SELECT persistent FROM sessions WHERE id_hash = $1', [sessionIdHash]);
  return rows[0]?.persistent ?? false;
}

/** Remember a user's consent to a client: the (user, client) row keeps its grant so later logins reuse it. */
export async function rememberConsent(db: Queryable, userId: string, clientId: string, grantId: string, scopes: string): Promise<void> {
  await db.query(
    `INSERT INTO identity_consents (user_id, client_id, grant_id, scopes) VALUES ($1, $2, $3, $4)
     ON CONFLICT (user_id, client_id) DO UPDATE SET grant_id = EXCLUDED.grant_id, scopes = EXCLUDED.scopes, updated_at = now()`,
    [userId, clientId, grantId, scopes],
  );
}
