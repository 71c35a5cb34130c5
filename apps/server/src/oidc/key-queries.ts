import type { Queryable } from '../db/client.js';

/** The SQL of the provider's signing keys, the table oidc_signing_keys (keys.ts decides which sign). */

/** A signing key as kept: sealed (keys.ts seals and unseals it), with its algorithm and its dates. */
export interface KeyRow<Alg extends string = string> {
  kid: string;
  alg: Alg;
  encrypted: string;
  activated_at: string | Date;
  retired_at: string | Date | null;
}

/** A key that is not retired, and whether it is active yet. */
export type KeyState<Alg extends string = string> = KeyRow<Alg> & { active: boolean };

/** The algorithms that have a key that can sign now. */
export async function algsThatSign<Alg extends string>(db: Queryable): Promise<Alg[]> {
  const { rows } = await db.query<{ alg: Alg }>(
    'SELECT DISTINCT alg FROM oidc_signing_keys WHERE retired_at IS NULL AND activated_at <= now()',
  );
  return rows.map((r) => r.alg);
}

/** Keep a new sealed key that signs from `activateInSeconds` on. */
export async function insertSigningKey(
  db: Queryable,
  kid: string,
  encrypted: string,
  activateInSeconds: number,
  alg: string,
): Promise<void> {
  await db.query(
    `INSERT INTO oidc_signing_keys (kid, encrypted, activated_at, alg) VALUES ($1, $2, now() + make_interval(secs => $3::double precision), $4)`,
    [kid, encrypted, activateInSeconds, alg],
  );
}

/** The keys of the algorithms that are not retired, RS256 first (the provider's default), the newest activated first. */
export async function liveSigningKeys<Alg extends string>(db: Queryable, algs: readonly Alg[]): Promise<KeyState<Alg>[]> {
  const { rows } = await db.query<KeyState<Alg>>(
    `SELECT kid, alg, encrypted, activated_at, retired_at, activated_at <= now() AS active
     FROM oidc_signing_keys WHERE retired_at IS NULL AND alg = ANY($1::text[])
     ORDER BY alg = 'RS256' DESC, alg, activated_at DESC, created_at DESC`,
    [[...algs]],
  );
  return rows;
}

/** Mark a key retired: no longer published. */
export async function retireSigningKey(db: Queryable, kid: string): Promise<void> {
  await db.query('UPDATE oidc_signing_keys SET retired_at = now() WHERE kid = $1', [kid]);
}
