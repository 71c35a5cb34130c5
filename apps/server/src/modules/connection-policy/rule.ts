import type { Queryable } from '../../db/client.js';
import { AppError } from '../../http/problem.js';
import { connectingForbiddenAbove } from './queries.js';

/**
 * The one rule of the connection policy (the operating contract, "Setup links for a dealer's IT
 * person"): when an organization set `sub_organizations_may_connect: false`, no organization
 * strictly below it creates an SSO connection, a SCIM token or a setup link — 409
 * connections_not_allowed. Called by each of those services (sso/service.ts, scim/tokens.ts,
 * setup-links/service.ts) after the actor's right over the organization was checked.
 */
export async function assertMayConnect(db: Queryable, org: { path: string }): Promise<void> {
  if (await connectingForbiddenAbove(db, org.path)) throw new AppError('connections_not_allowed');
}
