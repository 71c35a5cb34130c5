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

/** A row of the provider's account lookup (account.ts findAccount): user, organization and rights. */
export interface AccountRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  language_code: string;
  organization_id: string | null;
  organization_name: string | null;
  organization_path: string | null;
  rights: unknown;
}

/**
 * The account behind an OpenID Connect subject: user, organization and rights, by primary key. A
 * deactivated user (users.deactivated_at) is no account: no grant (a refresh token's included) is made for them.
 */
export const ACCOUNT_SQL = `SELECT u.id, u.email, u.first_name, u.last_name, u.language_code,
          o.id AS organization_id, o.name AS organization_name, o.path AS organization_path, m.rights
   FROM users u LEFT JOIN memberships m ON m.user_id = u.id LEFT JOIN organizations o ON o.id = m.organization_id
   WHERE u.id = $1::uuid AND u.deactivated_at IS NULL`;

export async function readAccount(db: Queryable, id: string): Promise<AccountRow | undefined> {
  const { rows } = await db.query<AccountRow>(ACCOUNT_SQL, [id]);
  return rows[0];
}

/** A service account's client as kept: its client id, the SHA-256 of its secret and its name (service-account-clients.ts). */
export async function serviceAccountClientRow(
  db: Queryable,
  clientId: string,
): Promise<{ client_id: string; secret_hash: string; name: string } | undefined> {
  const { rows } = await db.query<{ client_id: string; secret_hash: string; name: string }>(
    'SELECT client_id, secret_hash, name FROM service_accounts WHERE client_id = $1',
    [clientId],
  );
  return rows[0];
}

/** The live portal session of a hashed session secret: its user and whether it is persistent. */
export async function liveSession(db: Queryable, sessionIdHash: string): Promise<{ user_id: string; persistent: boolean } | undefined> {
  const { rows } = await db.query<{ user_id: string; persistent: boolean }>(
    'SELECT user_id, persistent FROM sessions WHERE id_hash = $1 AND expires_at > now()',
    [sessionIdHash],
  );
  return rows[0];
}

/** The grant a user's remembered consent to a client keeps (rememberConsent), if any. */
export async function rememberedGrantId(db: Queryable, userId: string, clientId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ grant_id: string | null }>(
    'SELECT grant_id FROM identity_consents WHERE user_id = $1::uuid AND client_id = $2',
    [userId, clientId],
  );
  return rows[0]?.grant_id ?? undefined;
}

// ---- support sessions (modules/support; migration 0081) ----

/** The support session a live portal session runs in, or null. */
export async function supportSessionOfPortalSession(db: Queryable, sessionIdHash: string): Promise<string | null> {
  const { rows } = await db.query<{ support_session_id: string | null }>(
    'SELECT support_session_id FROM sessions WHERE id_hash = $1 AND expires_at > now()',
    [sessionIdHash],
  );
  return rows[0]?.support_session_id ?? null;
}

/** Note a grant made during a support session: its tokens carry act, its user-info supportedBy. */
export async function recordSupportGrant(db: Queryable, grantId: string, supportSessionId: string): Promise<void> {
  await db.query('INSERT INTO support_session_grants (grant_id, support_session_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
    grantId,
    supportSessionId,
  ]);
}

/** The supporter of a grant made during a support session, or undefined (a grant of the account's own). */
export interface GrantSupporter {
  supporter_user_id: string | null;
  supporter_email: string;
  supporter_name: string;
}

export async function supporterOfGrant(db: Queryable, grantId: string): Promise<GrantSupporter | undefined> {
  const { rows } = await db.query<GrantSupporter>(
    `SELECT s.supporter_user_id, s.supporter_email, s.supporter_name
     FROM support_session_grants g JOIN support_sessions s ON s.id = g.support_session_id WHERE g.grant_id = $1`,
    [grantId],
  );
  return rows[0];
}
