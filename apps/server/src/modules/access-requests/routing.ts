import { emailDomain, isUserManager, toAsciiDomain, toRights } from '@partner-portal/contracts';
import type { Queryable } from '../../db/client.js';
import { findVerifiedDomain } from '../domains/queries.js';
import * as q from './queries.js';

/**
 * Where a visitor's access request goes (docs/dealer-identity.md, "Access requests"): to the
 * userManagers of the organization that verified the address's domain, or, when it has none, of its
 * nearest ancestor that has any; null when no organization verified the domain or no userManager
 * sits at or above it (the request then goes to the provider's sales contact).
 */
export interface RoutedRequest {
  organization: { id: string; name: string; path: string };
  managers: q.Recipient[];
}

/** The paths of the organization at `path` and of its ancestors: 'a', 'a/b', 'a/b/c'. */
export function pathsAtOrAbove(path: string): string[] {
  const segments = path.split('/');
  return segments.map((_, i) => segments.slice(0, i + 1).join('/'));
}

/** The domain of an address as verified domains are kept (ASCII form, lower case), or null. */
export function requestDomain(email: string): string | null {
  return toAsciiDomain(emailDomain(email));
}

export async function routeRequest(db: Queryable, email: string): Promise<RoutedRequest | null> {
  const domain = requestDomain(email);
  const verified = domain ? await findVerifiedDomain(db, domain) : undefined;
  if (!verified) return null;
  // the deepest organization first: the first with a userManager is the one asked
  const members = await q.membersOfPaths(db, pathsAtOrAbove(verified.organization_path));
  const managers = members.filter((m) => isUserManager(toRights(m.rights)));
  const nearest = managers[0];
  if (!nearest) return null;
  return {
    organization: { id: nearest.organization_id, name: nearest.organization_name, path: nearest.organization_path },
    managers: managers
      .filter((m) => m.organization_id === nearest.organization_id)
      .map((m) => ({ email: m.email, first_name: m.first_name, language_code: m.language_code })),
  };
}
