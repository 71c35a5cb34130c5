import { emailDomain } from '@partner-portal/contracts';
import type { Config } from '../../config.js';
import type { Database, Queryable } from '../../db/client.js';
import type { SessionCache } from '../../http/session-cache.js';
import { EXTERNAL_IDP_ID } from '../../oidc/upstream.js';
import { isPathInSubtree } from '../scope/access.js';
import * as q from './queries.js';

/**
 * Home-realm discovery (docs/dealer-identity.md, "Single sign-on per organization"): which
 * identity provider an e-mail address signs in at, if any. A connection *serves* a domain while it
 * is active and lists the domain, and the domain is verified at or above its organization; a
 * domain may be served by a connection of an organization and by connections of organizations
 * below it. The rules:
 *
 * - an account linked to the EXTERNAL_IDP_* provider signs in there while it is configured, and
 *   an address of EXTERNAL_IDP_EMAIL_DOMAINS too;
 * - a member of an organization below (or at) a connection serving their address's domain signs
 *   in at the nearest such connection above them: they are *served* (`served`), and the password
 *   step refuses them;
 * - every other address of a served domain — no account, or an account elsewhere in the tree —
 *   gets the same answer at the e-mail step (`route`): the connection of the organization that
 *   verified the domain, so that the e-mail step never tells whether an address has an account
 *   elsewhere (docs/security.md). A sub-organization's connection never takes the domain from the
 *   organization that verified it: when that organization has no connection of its own, such an
 *   address signs in with its password. An account elsewhere that the provider signs in is
 *   refused there (identity/upstream-link.ts) and keeps its password (the login page's password
 *   step, `password_login`);
 * - an inactive connection serves nobody, except the manager's test sign-in of it (`serves` with
 *   `testing`).
 *
 * One answer for the login's e-mail step, its password step, the login context (idp),
 * invitations (an invitation to such an address is accepted by signing in there) and the account
 * calls ("forgot password" gives no password to a served address).
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

  /** The e-mail step's answer: where an address signs in (the rules above), or null: with its password. */
  async route(email: string): Promise<SsoRoute | null> {
    return this.decide(email, null, 'route');
  }

  /**
   * Where an address's account is served (the rules above), or null: it may sign in with its
   * password. The password step and "forgot password" ask this.
   */
  async served(email: string): Promise<SsoRoute | null> {
    return this.decide(email, null, 'served');
  }

  /**
   * Whether a connection may sign in an address its provider vouched for: the connection the
   * address is routed to. `testing`: a manager's test sign-in, which counts the connection as
   * active. A dealer's provider never signs in an address of another domain.
   */
  async serves(connectionId: string, email: string, testing = false): Promise<boolean> {
    return (await this.decide(email, testing ? connectionId : null, 'route'))?.id === connectionId;
  }

  /**
   * The provider at which an invitation of an address into the organization at `organizationPath`
   * is accepted, or null: the nearest connection serving the address's domain at or above that
   * organization, or the EXTERNAL_IDP_* provider for its domains. `db`: the caller's transaction
   * when it asks inside one (the embedded database has a single connection).
   */
  async forInvitation(email: string, organizationPath: string, db: Queryable = this.deps.db): Promise<SsoRoute | null> {
    const { externalIdp } = this.deps.config;
    if (externalIdp?.emailDomains.includes(emailDomain(email))) return { id: EXTERNAL_IDP_ID, name: externalIdp.name };
    if (!(await this.anyConnection(db))) return null;
    const row = await q.domainRouting(db, email, emailDomain(email));
    const nearest = nearestAbove(servingConnections(row, null), organizationPath);
    return nearest ? { id: nearest.id, name: nearest.name } : null;
  }

  /**
   * Of accounts already read (a connection's members: their address, link and organization), those
   * a connection would sign in, as `serves` with `testing` decides for each: one statement a
   * domain, not one an account.
   */
  async servedBy<A extends { email: string; external_idp: string | null; organization_path: string }>(
    connectionId: string,
    accounts: readonly A[],
  ): Promise<A[]> {
    const facts = new Map<string, Omit<q.DomainRoutingRow, 'account'>>();
    for (const domain of new Set(accounts.map((a) => emailDomain(a.email)))) facts.set(domain, await q.domainFacts(this.deps.db, domain));
    return accounts.filter((a) => {
      const row = {
        ...facts.get(emailDomain(a.email))!,
        account: { external_idp: a.external_idp, organization_path: a.organization_path },
      };
      return this.answer(row, a.email, connectionId, 'route')?.id === connectionId;
    });
  }

  private async decide(email: string, testing: string | null, question: 'route' | 'served'): Promise<SsoRoute | null> {
    const { externalIdp } = this.deps.config;
    // while no connection exists, the login asks the database nothing more (docs/performance.md)
    if (!testing && !(await this.anyConnection())) {
      if (externalIdp?.emailDomains.includes(emailDomain(email))) return { id: EXTERNAL_IDP_ID, name: externalIdp.name };
      if (!externalIdp) return null;
    }
    return this.answer(await q.domainRouting(this.deps.db, email, emailDomain(email)), email, testing, question);
  }

  /** The rules above, applied to what the database said of the address. */
  private answer(row: q.DomainRoutingRow, email: string, testing: string | null, question: 'route' | 'served'): SsoRoute | null {
    const { externalIdp } = this.deps.config;
    const external = externalIdp ? { id: EXTERNAL_IDP_ID, name: externalIdp.name } : null;
    if (row.account?.external_idp === EXTERNAL_IDP_ID) return external;
    if (externalIdp?.emailDomains.includes(emailDomain(email))) return external;
    const serving = servingConnections(row, testing);
    const memberPath = row.account?.organization_path ?? null;
    const nearest = memberPath === null ? undefined : nearestAbove(serving, memberPath);
    if (nearest) return { id: nearest.id, name: nearest.name };
    if (question === 'served') return null;
    // no account, or one elsewhere in the tree: the connection of the organization that verified the domain
    const ofVerifier = row.verified_at.map((path) => nearestAbove(serving, path)).find((c) => c !== undefined);
    return ofVerifier ? { id: ofVerifier.id, name: ofVerifier.name } : null;
  }
}

/** The connections that serve the domain (the rules above): active (or the one under test) and verified at or above their organization. */
function servingConnections(row: q.DomainRoutingRow, testing: string | null): q.DomainConnection[] {
  return row.connections.filter(
    (c) => (c.active || c.id === testing) && row.verified_at.some((verifiedPath) => isPathInSubtree(verifiedPath, c.path)),
  );
}

/** The nearest of the connections (the highest first) at or above the organization at `path`. */
function nearestAbove(connections: readonly q.DomainConnection[], path: string): q.DomainConnection | undefined {
  return connections.findLast((c) => isPathInSubtree(c.path, path));
}

declare module '../../services.js' {
  interface Services {
    /** whether any single sign-on connection exists, cached per instance like sessions (modules/sso/routing.ts); null: asked at every login */
    ssoCache: SessionCache<boolean> | null;
  }
}
