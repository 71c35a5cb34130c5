import { AsyncLocalStorage } from 'node:async_hooks';
import type { AdapterPayload } from 'oidc-provider';
import type { Database } from '../db/client.js';
import { flushTokenWrites, revokeGrants } from './payload-queries.js';

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
 * Make the batch's writes in one statement. Returns false when a token to be consumed was
 * consumed by another request first: then nothing was saved, and the grants are revoked.
 */
export async function flush(db: Database, batch: TokenWrites): Promise<boolean> {
  if (batch.empty) return true;
  const { consumes, upserts } = batch;
  const { consumed } = await flushTokenWrites(db, consumes, upserts);
  if (consumed === consumes.length) return true;
  // the new tokens belong to the consumed token's grant: a reuse revokes it (as the provider does)
  const grantIds = [...new Set(upserts.map((u) => u.grantId).filter((g): g is string => g !== null))];
  if (grantIds.length) await revokeGrants(db, grantIds);
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
