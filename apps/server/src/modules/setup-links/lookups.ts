import {
  isOrganizationManager,
  isUserManager,
  ORGANIZATION_MANAGER_CAPABILITIES,
  toRights,
  type SetupCapability,
} from '@partner-portal/contracts';
import type { Queryable } from '../../db/client.js';
import type { SetupLinkPrincipal } from '../../http/actor.js';
import type { SetupLinkLookups } from '../../http/credentials.js';
import { hashSecret } from '../../http/session.js';
import { isPathInSubtree } from '../scope/access.js';
import { findSessionPrincipal, type SessionPrincipalRow } from './queries.js';

/**
 * How a setup session's cookie becomes the principal a dealer's IT person acts as (http/credentials.ts,
 * http/actor.ts SetupLinkActor): the link's organization and subtree, and its maker's rights as
 * they are NOW — while the maker still holds them over the link's organization — limited to the
 * link's capabilities: organizationManager only for domains, sso or audit_streams, userManager only
 * for scim. A revoked or expired link, or its ended session, is no principal (null).
 */
export function principalOf(row: SessionPrincipalRow): SetupLinkPrincipal {
  const rights = toRights(row.maker_rights);
  const capabilities = row.capabilities as SetupCapability[];
  const covers = row.maker_organization_path !== null && isPathInSubtree(row.maker_organization_path, row.organization_path);
  return {
    id: row.id,
    email: row.email,
    organizationId: row.organization_id,
    organizationPath: row.organization_path,
    organizationName: row.organization_name,
    capabilities,
    makerId: row.created_by,
    isProviderOrganization: row.organization_depth === 0 && row.maker_organization_depth === 0,
    rights,
    organizationManager: covers && isOrganizationManager(rights) && capabilities.some((c) => ORGANIZATION_MANAGER_CAPABILITIES.includes(c)),
    userManager: covers && isUserManager(rights) && capabilities.includes('scim'),
    isDeveloper: false,
  };
}

export function setupLinkLookups(db: Queryable): SetupLinkLookups {
  return {
    async setupLink(secret) {
      if (secret.length > 100) return null;
      const row = await findSessionPrincipal(db, hashSecret(secret));
      return row && principalOf(row);
    },
  };
}
