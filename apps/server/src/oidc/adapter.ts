import type { Adapter, AdapterConstructor, AdapterPayload } from 'oidc-provider';
import type { Database } from '../db/client.js';
import type { SessionCache } from '../http/session-cache.js';
import { isServiceAccountClientId } from '@partner-portal/contracts';
import { serviceAccountClient } from './service-account-clients.js';
import {
  catalogueClientMetadata,
  consumePayload,
  destroyPayload,
  findPayload,
  refreshTokenWithGrant,
  revokePayloadsOfGrant,
  upsertPayload,
  type PayloadKey,
  type PayloadRow,
} from './payload-queries.js';
import { deferredWritesFor, upsertRow } from './token-writes.js';

/**
 * oidc-provider storage over the table oidc_payloads, the same for PostgreSQL and PGlite: one row
 * per model instance, with the columns the provider looks things up by (grant id, uid, user code)
 * and the expiry. Expired rows are invisible at once and deleted by the clean-up job.
 *
 * Clients: a client registered through /connect/dcr is a 'Client' row; a client of the app
 * catalogue is the `oidc_metadata` of its apps row, read live so a catalogue change needs no
 * restart. A registered client can never shadow a catalogue one (registration ids are random).
 * A service account's client (`sa.<id>`, service-account-clients.ts) is read from service_accounts
 * only; its deletion is announced like any client's change (migration 0070).
 * With a cache (`clients`), a client found is kept like a session: every change of a client, made
 * on any instance, is announced by the database (migration 0053) and drops it.
 *
 * Inside a token request the writes of access and refresh tokens wait for the answer and are made
 * together in one statement (token-writes.ts).
 *
 * PostgreSQL text and jsonb cannot hold a NUL character: a key with one names nothing (found: none),
 * and NULs inside a stored payload (a parameter of a request copied into an interaction or an error
 * record) are replaced, so that no input to /connect reaches the database as an error.
 */
const NUL = '\u0000';

/** A key PostgreSQL can hold: false for one with a NUL, which can name no stored row. */
function storable(key: string): boolean {
  return !key.includes(NUL);
}

/** JSON for a jsonb column: NUL characters in string values become U+FFFD. */
function payloadJson(payload: AdapterPayload): string {
  return JSON.stringify(payload, (_key, value: unknown) => (typeof value === 'string' ? value.replaceAll(NUL, '\ufffd') : value));
}

/**
 * A refresh_token grant finds the refresh token and then its grant. The refresh token's lookup
 * brings the grant's row in the same statement; the grant waits here for the provider's
 * Grant.find that follows at once (within PREFETCH_LIFE_MS, used once). A change of the grant
 * through this adapter drops it.
 */
const PREFETCH_LIFE_MS = 2000;

function fromRow(row: PayloadRow): AdapterPayload {
  return row.consumed_at ? { ...row.payload, consumed: Math.floor(new Date(row.consumed_at).getTime() / 1000) } : row.payload;
}

/** A client's group in the cache: what the database's announcement of its change names (migration 0053). */
export function clientCacheGroup(clientId: string): string {
  return /[,|*]/.test(clientId) ? '*' : `client:${clientId}`;
}

export function postgresAdapter(db: Database, clients: SessionCache<Record<string, unknown>> | null = null): AdapterConstructor {
  const prefetchedGrants = new Map<string, { payload: AdapterPayload; until: number }>();
  const takePrefetchedGrant = (id: string): AdapterPayload | undefined => {
    const found = prefetchedGrants.get(id);
    prefetchedGrants.delete(id);
    return found && found.until > Date.now() ? found.payload : undefined;
  };
  const forgetGrant = (model: string, id: string) => {
    if (model === 'Grant') prefetchedGrants.delete(id);
    // this instance's own change is known before the statement's answer anyway (the pool
    // connection hears its announcement); dropping it here as well costs nothing
    if (model === 'Client') clients?.invalidate([clientCacheGroup(id)]);
  };
  return class PostgresAdapter implements Adapter {
    constructor(readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      if (!storable(id)) return;
      forgetGrant(this.model, id);
      const batch = deferredWritesFor(this.model);
      if (batch) {
        batch.upserts.push(upsertRow(this.model, id, payload, payloadJson(payload), expiresIn));
        return;
      }
      await upsertPayload(db, {
        model: this.model,
        id,
        payloadJson: payloadJson(payload),
        grantId: typeof payload.grantId === 'string' ? payload.grantId : null,
        userCode: typeof payload.userCode === 'string' ? payload.userCode : null,
        uid: typeof payload.uid === 'string' ? payload.uid : null,
        expiresIn: expiresIn && expiresIn > 0 ? expiresIn : null,
      });
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      if (!storable(id)) return undefined;
      if (this.model === 'Grant') {
        const prefetched = takePrefetchedGrant(id);
        if (prefetched) return prefetched;
      }
      if (this.model === 'RefreshToken') return this.findRefreshToken(id);
      if (this.model === 'Client') return this.findClient(id);
      // an expired device code stays until the clean-up: the provider checks its expiry itself,
      // and the polling device is told expired_token rather than that it is unknown (RFC 8628)
      if (this.model === 'DeviceCode') return this.findWhere('id', id, true);
      return this.findWhere('id', id);
    }

    /** A service account's client; else a registered client, else a client of the app catalogue; from the cache when it holds it. */
    private async findClient(id: string): Promise<AdapterPayload | undefined> {
      const cached = clients?.get(id);
      if (cached) return { ...cached };
      const ticket = clients?.ticket() ?? 0;
      const serviceAccount = isServiceAccountClientId(id);
      let found = serviceAccount ? await serviceAccountClient(db, id) : await this.findWhere('id', id);
      if (!found && !serviceAccount) {
        const metadata = await catalogueClientMetadata(db, id);
        found = metadata ? { ...metadata, client_id: id } : undefined;
      }
      if (found) clients?.set(id, clientCacheGroup(id), { ...found }, Number.POSITIVE_INFINITY, ticket);
      return found;
    }

    findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return this.findWhere('user_code', userCode);
    }

    findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return this.findWhere('uid', uid);
    }

    async consume(id: string): Promise<void> {
      if (!storable(id)) return;
      forgetGrant(this.model, id);
      const batch = deferredWritesFor(this.model);
      if (batch) {
        batch.consumes.push({ model: this.model, id });
        return;
      }
      await consumePayload(db, this.model, id);
    }

    async destroy(id: string): Promise<void> {
      if (!storable(id)) return;
      forgetGrant(this.model, id);
      await destroyPayload(db, this.model, id);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      if (!storable(grantId)) return;
      prefetchedGrants.delete(grantId);
      await revokePayloadsOfGrant(db, this.model, grantId);
    }

    /** The refresh token, its grant's row kept for the Grant.find that follows (one statement). */
    private async findRefreshToken(id: string): Promise<AdapterPayload | undefined> {
      const rows = await refreshTokenWithGrant(db, id);
      const token = rows.find((r) => r.model === 'RefreshToken');
      if (!token) return undefined;
      const payload = fromRow(token);
      const grant = rows.find((r) => r.model === 'Grant');
      const grantId = typeof payload.grantId === 'string' ? payload.grantId : undefined;
      if (grant && grantId) {
        if (prefetchedGrants.size > 10_000) prefetchedGrants.clear();
        prefetchedGrants.set(grantId, { payload: fromRow(grant), until: Date.now() + PREFETCH_LIFE_MS });
      }
      return payload;
    }

    private async findWhere(key: PayloadKey, value: string, includeExpired = false): Promise<AdapterPayload | undefined> {
      if (!storable(value)) return undefined;
      const row = await findPayload(db, this.model, key, value, includeExpired);
      return row ? fromRow(row) : undefined;
    }
  };
}
