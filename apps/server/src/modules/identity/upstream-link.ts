import type { Queryable } from '../../db/client.js';
import { EXTERNAL_IDP_ID, type UpstreamIdp } from '../../oidc/upstream.js';
import * as q from './queries.js';

/**
 * Linking portal accounts to the upstream identity provider (docs/product.md, "Flows and
 * states"): find the account of an upstream identity, linking an invited account on
 * its first login.
 */
export async function accountForUpstreamIdentity(
  db: Queryable,
  upstream: UpstreamIdp | null,
  identity: { subject: string; email: string | null; emailVerified: boolean },
): Promise<q.UserRow | undefined> {
  const linked = await q.findUserByExternalSubject(db, EXTERNAL_IDP_ID, identity.subject);
  if (linked) return linked;
  if (!identity.email || !identity.emailVerified) return undefined;
  const account = await q.findUserByEmail(db, identity.email);
  if (!account || account.external_subject !== null) return undefined;
  // an invited external account; or an account of a domain that logs in upstream (EXTERNAL_IDP_EMAIL_DOMAINS)
  const adoptNative = account.external_idp === null && upstream?.ownsEmail(account.email) === true;
  if (account.external_idp !== EXTERNAL_IDP_ID && !adoptNative) return undefined;
  const done = await q.linkExternalSubject(db, account.id, EXTERNAL_IDP_ID, identity.subject, adoptNative);
  return done ? { ...account, external_idp: EXTERNAL_IDP_ID, external_subject: identity.subject, password_hash: null } : undefined;
}
