import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { OutboundFetch } from '../../http/outbound.js';
import { unseal } from '../../sealed.js';
import { EXTERNAL_IDP_ID, UpstreamIdp, type UpstreamSettings } from '../../oidc/upstream.js';
import * as q from './queries.js';

/** The purpose of the key that seals connections' client secrets (sealed.ts). */
export const CLIENT_SECRET_PURPOSE = 'sso-client-secret';

/** How many connections' configurations an instance keeps discovered at most. */
const MAX_CACHED = 500;

/** A connection as a sign-in needs it: the row's facts, or those of the EXTERNAL_IDP_* provider. */
export interface ConnectionInfo {
  id: string;
  name: string;
  organizationId: string;
  organizationPath: string;
  /** the connection's organization's name (null: the EXTERNAL_IDP_* provider's) */
  organizationName: string | null;
  domains: readonly string[];
  justInTime: boolean;
  /** the EXTERNAL_IDP_* provider (set by configuration) */
  configured: boolean;
}

/**
 * The relying party of every connection (docs/dealer-identity.md, "Single sign-on per
 * organization"): one UpstreamIdp (oidc/upstream.ts) per connection, its discovered configuration
 * kept per instance under the connection's id and version (updated_at, read from the database at
 * every sign-in), in a cache of at most MAX_CACHED entries. A change made on any instance gives
 * the connection a new version, so every instance discovers it again at its next sign-in.
 */
export class SsoProviders {
  private readonly cache = new Map<string, { version: string; idp: UpstreamIdp }>();
  private root: Promise<{ id: string; path: string }> | null = null;

  constructor(
    private readonly deps: {
      db: Database;
      config: Config;
      secrets: { keyEncryption: string };
      fetch: OutboundFetch;
      /** the EXTERNAL_IDP_* provider, when configured (oidc/index.ts) */
      external: UpstreamIdp | null;
    },
  ) {}

  /** An UpstreamIdp for settings not (yet) stored: the check of a connection being created or changed. */
  forSettings(settings: UpstreamSettings): UpstreamIdp {
    return new UpstreamIdp(settings, this.deps.config.publicUrl, this.deps.fetch);
  }

  /** The connection of an id ('external' or a connection's) and its relying party, or null when there is none. */
  async find(id: string): Promise<{ connection: ConnectionInfo; idp: UpstreamIdp } | null> {
    const { external, config } = this.deps;
    if (id === EXTERNAL_IDP_ID) {
      if (!external || !config.externalIdp) return null;
      const root = await this.rootOrganization();
      return {
        connection: {
          id,
          name: external.name,
          organizationId: root.id,
          organizationPath: root.path,
          organizationName: null,
          domains: config.externalIdp.emailDomains,
          justInTime: false,
          configured: true,
        },
        idp: external,
      };
    }
    const row = await q.findConnection(this.deps.db, id);
    if (!row) return null;
    return { connection: toInfo(row), idp: await this.idpOf(row) };
  }

  private async idpOf(row: q.ConnectionRow): Promise<UpstreamIdp> {
    const cached = this.cache.get(row.id);
    if (cached?.version === row.version) {
      // the most recently used last: the first entry is the one to drop
      this.cache.delete(row.id);
      this.cache.set(row.id, cached);
      return cached.idp;
    }
    const clientSecret = row.client_secret_sealed
      ? await unseal(this.deps.secrets.keyEncryption, CLIENT_SECRET_PURPOSE, row.client_secret_sealed)
      : null;
    const idp = this.forSettings({ id: row.id, name: row.name, issuer: row.issuer, clientId: row.client_id, clientSecret });
    this.cache.delete(row.id);
    this.cache.set(row.id, { version: row.version, idp });
    while (this.cache.size > MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
    return idp;
  }

  private rootOrganization(): Promise<{ id: string; path: string }> {
    this.root ??= q.rootOrganization(this.deps.db).catch((err: unknown) => {
      this.root = null;
      throw err;
    });
    return this.root;
  }
}

export function toInfo(row: q.ConnectionRow): ConnectionInfo {
  return {
    id: row.id,
    name: row.name,
    organizationId: row.organization_id,
    organizationPath: row.organization_path,
    organizationName: row.organization_name,
    domains: row.domains,
    justInTime: row.just_in_time,
    configured: false,
  };
}
