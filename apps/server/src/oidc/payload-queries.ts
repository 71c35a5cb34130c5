import type { AdapterPayload } from 'oidc-provider';
import { preparedStatement, type Queryable } from '../db/client.js';

/**
 * The SQL of the provider's storage, the table oidc_payloads (adapter.ts, token-writes.ts), and of
 * the clients it reads (a registered client's row; a client of the app catalogue, apps.oidc_metadata).
 */

/** A stored instance of a model, as read: its payload and when it was consumed. */
export interface PayloadRow {
  model?: string;
  payload: AdapterPayload;
  consumed_at: string | Date | null;
}

/**
 * A refresh_token grant finds the refresh token and then its grant: both in one statement
 * (adapter.ts keeps the grant for the provider's Grant.find that follows).
 */
export const REFRESH_TOKEN_WITH_GRANT_SQL = preparedStatement(
  'refresh-token-with-grant',
  `WITH t AS (
  SELECT payload, consumed_at FROM oidc_payloads
  WHERE model = 'RefreshToken' AND id = $1 AND (expires_at IS NULL OR expires_at > now())
)
SELECT 'RefreshToken' AS model, payload, consumed_at FROM t
UNION ALL
SELECT 'Grant', g.payload, g.consumed_at FROM t
JOIN oidc_payloads g ON g.model = 'Grant' AND g.id = t.payload->>'grantId' AND (g.expires_at IS NULL OR g.expires_at > now())`,
);

/** A refresh token and its grant's row (REFRESH_TOKEN_WITH_GRANT_SQL). */
export async function refreshTokenWithGrant(db: Queryable, id: string): Promise<PayloadRow[]> {
  return (await db.query<PayloadRow>(REFRESH_TOKEN_WITH_GRANT_SQL, [id])).rows;
}

/** The columns an instance of a model is looked up by. */
export type PayloadKey = 'id' | 'user_code' | 'uid';

/** The live instance of a model by one of its lookup columns. */
export async function findPayload(
  db: Queryable,
  model: string,
  key: PayloadKey,
  value: string,
  includeExpired = false,
): Promise<PayloadRow | undefined> {
  const { rows } = await db.query<PayloadRow>(
    `SELECT payload, consumed_at FROM oidc_payloads
     WHERE model = $1 AND ${key} = $2 AND ($3 OR expires_at IS NULL OR expires_at > now()) LIMIT 1`,
    [model, value, includeExpired],
  );
  return rows[0];
}

/** What an instance of a model is stored with: its payload as JSON and the columns looked up by. */
export interface PayloadWrite {
  model: string;
  id: string;
  payloadJson: string;
  grantId: string | null;
  userCode: string | null;
  uid: string | null;
  /** seconds from now, or null for no expiry */
  expiresIn: number | null;
}

/** Save an instance of a model (new or replaced). */
export async function upsertPayload(db: Queryable, write: PayloadWrite): Promise<void> {
  await db.query(
    `INSERT INTO oidc_payloads (model, id, payload, grant_id, user_code, uid, expires_at)
     VALUES ($1, $2, $3::jsonb, $4, $5, $6,
             CASE WHEN $7::double precision IS NULL THEN NULL ELSE now() + make_interval(secs => $7::double precision) END)
     ON CONFLICT (model, id) DO UPDATE SET
       payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id, user_code = EXCLUDED.user_code,
       uid = EXCLUDED.uid, expires_at = EXCLUDED.expires_at`,
    [write.model, write.id, write.payloadJson, write.grantId, write.userCode, write.uid, write.expiresIn],
  );
}

/** Mark an instance consumed. */
export async function consumePayload(db: Queryable, model: string, id: string): Promise<void> {
  await db.query('UPDATE oidc_payloads SET consumed_at = now() WHERE model = $1 AND id = $2', [model, id]);
}

/** Delete an instance. */
export async function destroyPayload(db: Queryable, model: string, id: string): Promise<void> {
  await db.query('DELETE FROM oidc_payloads WHERE model = $1 AND id = $2', [model, id]);
}

/** Delete a model's instances of a grant. */
export async function revokePayloadsOfGrant(db: Queryable, model: string, grantId: string): Promise<void> {
  await db.query('DELETE FROM oidc_payloads WHERE model = $1 AND grant_id = $2', [model, grantId]);
}

/** Delete grants and everything issued under them (a reused refresh token: token-writes.ts). */
export async function revokeGrants(db: Queryable, grantIds: string[]): Promise<void> {
  await db.query(`DELETE FROM oidc_payloads WHERE grant_id = ANY($1::text[]) OR (model = 'Grant' AND id = ANY($1::text[]))`, [grantIds]);
}

/** The client metadata of a client of the app catalogue, if it has one. */
export async function catalogueClientMetadata(db: Queryable, clientId: string): Promise<Record<string, unknown> | undefined> {
  const { rows } = await db.query<{ oidc_metadata: Record<string, unknown> }>(
    'SELECT oidc_metadata FROM apps WHERE client_id = $1 AND oidc_metadata IS NOT NULL',
    [clientId],
  );
  return rows[0]?.oidc_metadata;
}

/** Whether a registered or catalogue client names the address as one of its own (return-url.ts). */
export async function isRegisteredClientUri(db: Queryable, url: string): Promise<boolean> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (
       SELECT payload AS m FROM oidc_payloads WHERE model = 'Client' AND (expires_at IS NULL OR expires_at > now())
       UNION ALL SELECT oidc_metadata FROM apps WHERE oidc_metadata IS NOT NULL
     ) c
     WHERE c.m->'redirect_uris' ? $1 OR c.m->'post_logout_redirect_uris' ? $1 OR c.m->>'client_uri' = $1 OR c.m->>'initiate_login_uri' = $1`,
    [url],
  );
  return (rows[0]?.n ?? 0) > 0;
}

/**
 * The writes in one statement; `consumed` is the statement that marks the presented tokens used.
 * The inserts only happen if every mark succeeded.
 */
function flushSql(consumed: string, consumeCount: string): string {
  return `WITH consumed AS (
  ${consumed}
  RETURNING 1
), saved AS (
  INSERT INTO oidc_payloads (model, id, payload, grant_id, expires_at)
  SELECT r.model, r.id, r.payload::jsonb, r.grant_id,
         CASE WHEN r.expires_in IS NULL THEN NULL ELSE now() + make_interval(secs => r.expires_in) END
  FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::double precision[]) AS r(model, id, payload, grant_id, expires_in)
  WHERE (SELECT count(*) FROM consumed) = ${consumeCount}
  ON CONFLICT (model, id) DO UPDATE SET
    payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id, user_code = NULL, uid = NULL, expires_at = EXCLUDED.expires_at
  RETURNING 1
)
SELECT (SELECT count(*) FROM consumed)::int AS consumed, (SELECT count(*) FROM saved)::int AS saved`;
}

/**
 * A refresh grant marks one token (or none): a prepared statement, parsed and planned once per
 * connection. Its mark is a lookup by primary key, so its plan does not depend on the size of
 * oidc_payloads, which grows by two rows a grant (a generic plan of a list of marks joined to the
 * table was a scan of the whole table when it was made on a small table, docs/performance.md).
 */
export const FLUSH_ONE_SQL = preparedStatement(
  'token-writes',
  flushSql(
    'UPDATE oidc_payloads SET consumed_at = now() WHERE model = $1::text AND id = $2::text AND consumed_at IS NULL',
    '(CASE WHEN $1::text IS NULL THEN 0 ELSE 1 END)',
  ),
);
/** Several marks at once (no grant of the provider makes them today): planned each time. */
const FLUSH_MANY_SQL = flushSql(
  'UPDATE oidc_payloads SET consumed_at = now() WHERE (model, id) IN (SELECT * FROM unnest($1::text[], $2::text[])) AND consumed_at IS NULL',
  'cardinality($1::text[])',
);

/** What the one statement of a token request's writes did (token-writes.ts). */
export interface FlushResult {
  consumed: number;
  saved: number;
}

/**
 * The writes of a token request in one statement: marks of used tokens (`consumes`) and new
 * instances (`upserts`), saved only if every mark succeeded.
 */
export async function flushTokenWrites(
  db: Queryable,
  consumes: { model: string; id: string }[],
  upserts: { model: string; id: string; payload: string; grantId: string | null; expiresIn: number | null }[],
): Promise<FlushResult> {
  const one = consumes.length <= 1;
  const { rows } = await db.query<FlushResult>(one ? FLUSH_ONE_SQL : FLUSH_MANY_SQL, [
    one ? (consumes[0]?.model ?? null) : consumes.map((c) => c.model),
    one ? (consumes[0]?.id ?? null) : consumes.map((c) => c.id),
    upserts.map((u) => u.model),
    upserts.map((u) => u.id),
    upserts.map((u) => u.payload),
    upserts.map((u) => u.grantId),
    upserts.map((u) => u.expiresIn),
  ]);
  return rows[0]!;
}
