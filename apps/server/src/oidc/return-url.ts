import type { Queryable } from '../db/client.js';
import { AppError } from '../http/problem.js';
import { isRegisteredClientUri } from './payload-queries.js';
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
  if (/^https?:\/\//i.test(returnUrl) && (await isRegisteredClientUri(db, returnUrl))) return returnUrl;
  throw AppError.validation({ return_url: 'invalid_return_url' });
}
