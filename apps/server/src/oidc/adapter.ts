import type { Adapter, AdapterConstructor, AdapterPayload } from 'oidc-provider';
import type { Database } from '../db/client.js';

/**
 * oidc-provider storage over the table oidc_payloads, the same for PostgreSQL and PGlite: one row
 * per model instance, with the columns the provider looks things up by (grant id, uid, user code)
 * and the expiry. Expired rows are invisible at once and deleted by the clean-up job.
 *
 * Clients: a client registered through /connect/dcr is a 'Client' row; a client of the app
 * catalogue is the `oidc_metadata` of its apps row, read live so a catalogue change needs no
 * restart. A registered client can never shadow a catalogue one (registration ids are random).
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

export function postgresAdapter(db: Database): AdapterConstructor {
  return class PostgresAdapter implements Adapter {
    constructor(readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      if (!storable(id)) return;
      await db.query(
        `INSERT INTO oidc_payloads (model, id, payload, grant_id, user_code, uid, expires_at)
         VALUES ($1, $2, $3::jsonb, $4, $5, $6,
                 CASE WHEN $7::double precision IS NULL THEN NULL ELSE now() + make_interval(secs => $7::double precision) END)
         ON CONFLICT (model, id) DO UPDATE SET
           payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id, user_code = EXCLUDED.user_code,
           uid = EXCLUDED.uid, expires_at = EXCLUDED.expires_at`,
        [
          this.model,
          id,
          payloadJson(payload),
          payload.grantId ?? null,
          payload.userCode ?? null,
          payload.uid ?? null,
          expiresIn && expiresIn > 0 ? expiresIn : null,
        ],
      );
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      if (!storable(id)) return undefined;
      const found = await this.findWhere('id = $2', id);
      if (found || this.model !== 'Client') return found;
      const { rows } = await db.query<{ oidc_metadata: Record<string, unknown> }>(
        'SELECT oidc_metadata FROM apps WHERE client_id = $1 AND oidc_metadata IS NOT NULL',
        [id],
      );
      const metadata = rows[0]?.oidc_metadata;
      return metadata ? { ...metadata, client_id: id } : undefined;
    }

    findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return this.findWhere('user_code = $2', userCode);
    }

    findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return this.findWhere('uid = $2', uid);
    }

    async consume(id: string): Promise<void> {
      if (!storable(id)) return;
      await db.query('UPDATE oidc_payloads SET consumed_at = now() WHERE model = $1 AND id = $2', [this.model, id]);
    }

    async destroy(id: string): Promise<void> {
      if (!storable(id)) return;
      await db.query('DELETE FROM oidc_payloads WHERE model = $1 AND id = $2', [this.model, id]);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      if (!storable(grantId)) return;
      await db.query('DELETE FROM oidc_payloads WHERE model = $1 AND grant_id = $2', [this.model, grantId]);
    }

    private async findWhere(condition: string, value: string): Promise<AdapterPayload | undefined> {
      if (!storable(value)) return undefined;
      const { rows } = await db.query<{ payload: AdapterPayload; consumed_at: string | Date | null }>(
        `SELECT payload, consumed_at FROM oidc_payloads
         WHERE model = $1 AND ${condition} AND (expires_at IS NULL OR expires_at > now()) LIMIT 1`,
        [this.model, value],
      );
      const row = rows[0];
      if (!row) return undefined;
      return row.consumed_at ? { ...row.payload, consumed: Math.floor(new Date(row.consumed_at).getTime() / 1000) } : row.payload;
    }
  };
}

/** Delete every expired row (the clean-up job). */
export async function sweepExpiredPayloads(db: Database): Promise<number> {
  const result = await db.query('DELETE FROM oidc_payloads WHERE expires_at < now()');
  return result.rowCount;
}
