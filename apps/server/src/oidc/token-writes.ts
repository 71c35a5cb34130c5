import { AsyncLocalStorage } from 'node:async_hooks';
import type { AdapterPayload } from 'oidc-provider';
import { preparedStatement, type Database } from '../db/client.js';

/**
 * The writes of one token request, made in one statement when the answer is ready.
 *
 * A refresh_token grant with rotation asks its storage for three writes one after another: mark
 * the presented refresh token used, save the new refresh token, save the access token. Each is a
 * round trip to the database, and the answer waits for each in turn. Inside a token request
 * (`POST /connect/token`), the adapter (adapter.ts) hands those writes to the request's batch
 * instead; when the provider has built a successful answer, `flush` makes them in ONE statement,
 * before a byte of the answer leaves:
 *
 * - the used refresh token is marked only if nobody marked it first (`consumed_at IS NULL`), and
 *   the new tokens are saved only if every mark succeeded. Two requests racing with the same
 *   refresh token can no longer both get tokens: the loser saves nothing and is answered
 *   `invalid_grant`, and, as for any reuse of a used refresh token, the grant is revoked;
 * - a failed write answers `server_error` instead of tokens that were never stored;
 * - a request that fails before its answer (an error of the provider) writes nothing: its refresh
 *   token stays usable.
 *
 * Other models (grants, sessions, interactions, codes, records) are written at once as before.
 */
export class TokenWrites {
  readonly consumes: { model: string; id: string }[] = [];
  readonly upserts: { model: string; id: string; payload: string; grantId: string | null; expiresIn: number | null }[] = [];
  get empty(): boolean {
    return this.consumes.length === 0 && this.upserts.length === 0;
  }
}

/** The models whose writes wait for the answer of a token request. */
const DEFERRED_MODELS = new Set(['AccessToken', 'RefreshToken']);

const storage = new AsyncLocalStorage<TokenWrites>();

/** The batch of the token request being handled, if this write belongs to one and may wait. */
export function deferredWritesFor(model: string): TokenWrites | undefined {
  return DEFERRED_MODELS.has(model) ? storage.getStore() : undefined;
}

/** Run `fn` (the rest of a token request) with a batch of its own. */
export function withTokenWrites<T>(batch: TokenWrites, fn: () => Promise<T>): Promise<T> {
  return storage.run(batch, fn);
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

/**
 * Make the batch's writes in one statement. Returns false when a token to be consumed was
 * consumed by another request first: then nothing was saved, and the grants are revoked.
 */
export async function flush(db: Database, batch: TokenWrites): Promise<boolean> {
  if (batch.empty) return true;
  const { consumes, upserts } = batch;
  const one = consumes.length <= 1;
  const { rows } = await db.query<{ consumed: number; saved: number }>(one ? FLUSH_ONE_SQL : FLUSH_MANY_SQL, [
    one ? (consumes[0]?.model ?? null) : consumes.map((c) => c.model),
    one ? (consumes[0]?.id ?? null) : consumes.map((c) => c.id),
    upserts.map((u) => u.model),
    upserts.map((u) => u.id),
    upserts.map((u) => u.payload),
    upserts.map((u) => u.grantId),
    upserts.map((u) => u.expiresIn),
  ]);
  if (rows[0]!.consumed === consumes.length) return true;
  // the new tokens belong to the consumed token's grant: a reuse revokes it (as the provider does)
  const grantIds = [...new Set(upserts.map((u) => u.grantId).filter((g): g is string => g !== null))];
  if (grantIds.length) {
    await db.query(`DELETE FROM oidc_payloads WHERE grant_id = ANY($1::text[]) OR (model = 'Grant' AND id = ANY($1::text[]))`, [grantIds]);
  }
  return false;
}

/** The row of one upsert, as the adapter stores it (grant id and expiry are columns of their own). */
export function upsertRow(
  model: string,
  id: string,
  payload: AdapterPayload,
  payloadJson: string,
  expiresIn: number | undefined,
): TokenWrites['upserts'][number] {
  return {
    model,
    id,
    payload: payloadJson,
    grantId: typeof payload.grantId === 'string' ? payload.grantId : null,
    expiresIn: expiresIn && expiresIn > 0 ? expiresIn : null,
  };
}
