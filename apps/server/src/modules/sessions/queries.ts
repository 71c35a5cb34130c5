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

// ---- what the OpenID provider keeps for accounts (oidc_payloads, served by oidc_payloads_account_idx) ----

/** A client of a provider session that ends, or whose grant ends: it is sent back-channel logout. */
export interface EndedAuthorization {
  account_id: string;
  client_id: string;
  sid: string;
}

/** The authorizations of a provider session row `s` (client id → { sid, grantId, … }), as a JSON object. */
const authorizationsOf = (s: string) =>
  `CASE WHEN jsonb_typeof(${s}.payload->'authorizations') = 'object' THEN ${s}.payload->'authorizations' ELSE '{}'::jsonb END`;

/**
 * End some of the rows the provider keeps for some accounts, in one statement:
 * - `accounts`: a SELECT of the accounts' ids as text (`account_id`);
 * - `choice`: WITH queries over `own` (the accounts' rows: model, id, grant_id, payload, live), the
 *   last of them named `ending`: the (model, id) of the rows that end.
 * The accounts' remembered consents (identity_consents) whose grant ends, or is gone already, end
 * with them, so that no later sign-in silently brings an ended grant back. Answers the clients to
 * tell: each client of a live provider session that ends, or whose grant in that session ends.
 */
function endProviderRowsSql(accounts: string, choice: string): string {
  return `WITH accounts AS (${accounts}),
own AS (
  SELECT p.model, p.id, p.grant_id, p.payload, (p.expires_at IS NULL OR p.expires_at > now()) AS live
  FROM oidc_payloads p
  WHERE p.payload ? 'accountId' AND p.payload->>'accountId' IN (SELECT account_id FROM accounts)
),
${choice},
ended AS (
  DELETE FROM oidc_payloads p USING ending e WHERE p.model = e.model AND p.id = e.id RETURNING p.model, p.id
),
forgotten AS (
  DELETE FROM identity_consents c
  WHERE c.user_id IN (SELECT account_id::uuid FROM accounts)
    AND NOT EXISTS (
      SELECT 1 FROM own g WHERE g.model = 'Grant' AND g.id = c.grant_id AND g.live
        AND NOT EXISTS (SELECT 1 FROM ended e WHERE e.model = 'Grant' AND e.id = g.id))
)
SELECT s.payload->>'accountId' AS account_id, a.key AS client_id, coalesce(a.value->>'sid', '') AS sid
FROM own s CROSS JOIN LATERAL jsonb_each(${authorizationsOf('s')}) a
WHERE s.model = 'Session' AND s.live
  AND (EXISTS (SELECT 1 FROM ended e WHERE e.model = 'Session' AND e.id = s.id)
    OR EXISTS (SELECT 1 FROM ended e WHERE e.model = 'Grant' AND e.id = a.value->>'grantId'))`;
}

/**
 * Everything the provider keeps for an account (provider sessions, grants, authorization codes,
 * access and refresh tokens, the portal's records of it) except, when `sparedSession` names one of
 * the account's live provider sessions (its id, the browser's cookie), that session, the grants it
 * holds, and the codes and tokens issued through it (the grant's, with that session's uid). A grant
 * is shared by the sessions that signed in to the same client (the remembered consent reuses it):
 * the other sessions' tokens of it end, the grant stays.
 */
const END_ACCOUNT_SQL = endProviderRowsSql(
  'SELECT $1::text AS account_id',
  `spared_session AS (
  SELECT o.id, o.payload FROM own o WHERE o.model = 'Session' AND o.live AND o.id = $2::text
),
spared_grants AS (
  SELECT a.value->>'grantId' AS id FROM spared_session s CROSS JOIN LATERAL jsonb_each(${authorizationsOf('s')}) a
),
ending AS (
  SELECT o.model, o.id FROM own o
  WHERE NOT EXISTS (SELECT 1 FROM spared_session s WHERE o.model = 'Session' AND o.id = s.id)
    AND NOT EXISTS (SELECT 1 FROM spared_grants g WHERE o.model = 'Grant' AND o.id = g.id)
    AND NOT EXISTS (
      SELECT 1 FROM spared_grants g, spared_session s WHERE o.grant_id = g.id AND o.payload->>'sessionUid' = s.payload->>'uid')
)`,
);

export async function endProviderRowsOf(q: Queryable, userId: string, sparedSession: string | null): Promise<EndedAuthorization[]> {
  const { rows } = await q.query<EndedAuthorization>(END_ACCOUNT_SQL, [userId, sparedSession]);
  return rows;
}

/**
 * What a sign-in that `acr` did not prove gave the accounts' clients: the provider sessions of
 * another acr, and every grant that is not proven — a grant is proven when something live shows
 * how it was obtained (its refresh tokens and authorization codes, the provider sessions that hold
 * it) and all of it says `acr` — with its codes and tokens. An access token carries no acr of its
 * own: its grant decides.
 */
const END_UNPROVEN_SQL = endProviderRowsSql(
  'SELECT unnest($1::text[]) AS account_id',
  `evidence AS (
  SELECT o.grant_id, o.payload->>'acr' AS acr FROM own o
  WHERE o.live AND o.model IN ('RefreshToken', 'AuthorizationCode') AND o.grant_id IS NOT NULL
  UNION ALL
  SELECT a.value->>'grantId', s.payload->>'acr' FROM own s CROSS JOIN LATERAL jsonb_each(${authorizationsOf('s')}) a
  WHERE s.model = 'Session' AND s.live AND a.value ? 'grantId'
),
proven AS (
  SELECT grant_id AS id FROM evidence GROUP BY grant_id HAVING bool_and(acr IS NOT DISTINCT FROM $2::text)
),
ending AS (
  SELECT o.model, o.id FROM own o
  WHERE CASE
    WHEN o.model = 'Session' THEN o.payload->>'acr' IS DISTINCT FROM $2::text
    WHEN o.model = 'Grant' THEN NOT EXISTS (SELECT 1 FROM proven p WHERE p.id = o.id)
    WHEN o.model IN ('AccessToken', 'RefreshToken', 'AuthorizationCode') THEN NOT EXISTS (SELECT 1 FROM proven p WHERE p.id = o.grant_id)
    ELSE false
  END
)`,
);

export async function endUnprovenProviderRowsOf(q: Queryable, userIds: readonly string[], acr: string): Promise<EndedAuthorization[]> {
  if (userIds.length === 0) return [];
  const { rows } = await q.query<EndedAuthorization>(END_UNPROVEN_SQL, [userIds, acr]);
  return rows;
}
