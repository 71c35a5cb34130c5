import { emailDomain } from '@partner-portal/contracts';
import type { Config } from '../../config.js';
import type { Database, Queryable } from '../../db/client.js';
import type { SessionCache } from '../../http/session-cache.js';
import { EXTERNAL_IDP_ID } from '../../oidc/upstream.js';
import { isPathInSubtree } from '../scope/access.js';
import * as q from './queries.js';

/**
 * Home-realm discovery (docs/dealer-identity.md, "Single sign-on per organization"): which
 * identity provider an e-mail address signs in at, if any. One answer for the login's e-mail step
 * (external_login), its password step (which refuses such an address), the login context (idp),
 * invitations (an invitation to such an address is accepted by signing in there) and the account
 * calls ("forgot password" gives no password to such an address):
 *
 * - an account linked to the EXTERNAL_IDP_* provider signs in there while it is configured;
 * - an account linked to a connection signs in there while its address's domain is still one of
 *   the connection's domains and verified at or above the connection's organization (a domain
 *   that lost its verification, or left the connection, stops routing);
 * - an address of EXTERNAL_IDP_EMAIL_DOMAINS signs in at that provider;
 * - an address of a connection's domain (verified at or above its organization) signs in at the
 *   connection when it has no account, or when its account is a member of the connection's
 *   organization's subtree. A member elsewhere with an address of the same domain (a sibling
 *   organization's) keeps its password.
 */
export interface SsoRoute {
  /** 'external' or the connection's id */
  id: string;
  /** the provider's name, as the login shows it */
  name: string;
}

/** The cache group whose announcement (migration 0062) drops what an instance knows of the connections. */
export const CONNECTIONS_CACHE_GROUP = 'sso:connections';

export class SsoRouting {
  constructor(
    private readonly deps: {
      db: Database;
      config: Config;
      /** whether any connection exists, per instance (null: asked at every login) */
      cache: SessionCache<boolean> | null;
    },
  ) {}

  /** Forget what this instance knows of the connections (after a change of its own; others hear the announcement). */
  connectionsChanged(): void {
    this.deps.cache?.invalidate([CONNECTIONS_CACHE_GROUP]);
  }

  /** Whether any connection exists: from this instance's cache while it holds the answer. */
  async anyConnection(db: Queryable = this.deps.db): Promise<boolean> {
    const { cache } = this.deps;
    const cached = cache?.get(CONNECTIONS_CACHE_GROUP);
    if (cached !== undefined) return cached;
    const ticket = cache?.ticket() ?? 0;
    const any = await q.anyConnection(db);
    cache?.set(CONNECTIONS_CACHE_GROUP, CONNECTIONS_CACHE_GROUP, any, Number.POSITIVE_INFINITY, ticket);
    return any;
  }

  /** Where an e-mail address signs in (the rules above), or null: with its password. */
  async route(email: string): Promise<SsoRoute | null> {
    const { externalIdp } = this.deps.config;
    // while no connection exists, the login asks the database nothing more (docs/performance.md)
    if (!(await this.anyConnection())) {
      if (!externalIdp) return null;
      if (externalIdp.emailDomains.includes(emailDomain(email))) return { id: EXTERNAL_IDP_ID, name: externalIdp.name };
    }
    const row = await q.addressRouting(this.deps.db, email, emailDomain(email));
    if (row.external_idp === EXTERNAL_IDP_ID) return externalIdp ? { id: EXTERNAL_IDP_ID, name: externalIdp.name } : null;
    if (row.external_idp !== null) {
      return row.connection_id === row.external_idp ? { id: row.connection_id, name: row.connection_name! } : null;
    }
    if (externalIdp?.emailDomains.includes(emailDomain(email))) return { id: EXTERNAL_IDP_ID, name: externalIdp.name };
    if (row.connection_id && (!row.has_account || row.member_below)) return { id: row.connection_id, name: row.connection_name! };
    return null;
  }

  /**
   * Whether an address is of one of a connection's verified domains: one it lists, verified at or
   * above its organization. A dealer's provider never signs in an address of another domain.
   */
  async serves(connectionId: string, email: string): Promise<boolean> {
    const serving = await q.connectionServing(this.deps.db, emailDomain(email));
    return serving?.id === connectionId;
  }

  /**
   * The provider at which an invitation of an address into the organization at `organizationPath`
   * is accepted, or null: a connection that serves the address's domain above or at that
   * organization, or the EXTERNAL_IDP_* provider for its domains. `db`: the caller's transaction
   * when it asks inside one (the embedded database has a single connection).
   */
  async forInvitation(email: string, organizationPath: string, db: Queryable = this.deps.db): Promise<SsoRoute | null> {
    const { externalIdp } = this.deps.config;
    if (externalIdp?.emailDomains.includes(emailDomain(email))) return { id: EXTERNAL_IDP_ID, name: externalIdp.name };
    if (!(await this.anyConnection(db))) return null;
    const serving = await q.connectionServing(db, emailDomain(email));
    return serving && isPathInSubtree(serving.organization_path, organizationPath) ? { id: serving.id, name: serving.name } : null;
  }
}

declare module '../../services.js' {
  interface Services {
    /** whether any single sign-on connection exists, cached per instance like sessions (modules/sso/routing.ts); null: asked at every login */
    ssoCache: SessionCache<boolean> | null;
  }
}
