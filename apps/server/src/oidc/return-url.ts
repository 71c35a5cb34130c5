import type { Queryable } from '../db/client.js';
import { AppError } from '../http/problem.js';
import type { Oidc } from './runtime.js';

/**
 * The address the browser may go to after login (no open redirects): an interaction of this
 * provider that is still waiting, or an address registered by a client. Anything else is refused
 * (400 invalid_return_url; 400 interaction_expired for an interaction that is gone).
 */
export async function validReturnUrl(oidc: Oidc, db: Queryable, returnUrl: string | null | undefined): Promise<string | null> {
  if (!returnUrl) return null;
  const uid = oidc.interactionUid(returnUrl);
  if (uid) {
    const interaction = await oidc.provider().Interaction.find(uid);
    if (!interaction) throw new AppError('interaction_expired');
    return oidc.interactionUrl(uid);
  }
  if (await isRegisteredClientUri(db, returnUrl)) return returnUrl;
  throw AppError.validation({ return_url: 'invalid_return_url' });
}

async function isRegisteredClientUri(db: Queryable, url: string): Promise<boolean> {
  if (!/^https?:\/\//i.test(url)) return false;
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
