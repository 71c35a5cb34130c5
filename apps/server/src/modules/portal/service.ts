import {
  featuresFrom,
  hasAppAccess,
  sectionByClientId,
  type Features,
  type PortalConfiguration,
  type Tile,
} from '@partner-portal/contracts';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { SessionUser } from '../../http/session.js';
import { readFeatures } from '../organizations/queries.js';
import * as q from './queries.js';

/** The home page's reads (docs/product.md, "Screens" and "Calls") and the site's settings. */
export class Portal {
  constructor(private readonly deps: { db: Database; config: Config }) {}

  /**
   * The home page's tiles. A tile of an app shows when the user's organization has
   * the app (the provider's root organization has every app) and the user's rights open it — access,
   * full permission or any sub-right, or, for a tile that names a required right, that right.
   * Tiles of no app show to everyone. coming_soon tiles are returned as they are (the page shows them
   * inactive). Users who manage users or organizations get the user-management tile.
   */
  async tiles(user: SessionUser): Promise<Tile[]> {
    const { db } = this.deps;
    const [tiles, orgApps] = await Promise.all([
      q.listTiles(db),
      user.organizationId ? q.listOrganizationClientIds(db, user.organizationId) : Promise.resolve([]),
    ]);
    const apps = new Set(orgApps);
    const visible = tiles.filter((t) => {
      if (!t.client_id) return true;
      if (!user.organizationId) return false;
      if (!user.isProviderOrganization && !apps.has(t.client_id)) return false;
      const section = sectionByClientId(t.client_id);
      if (!section) return false;
      if (t.required_right) return user.rights[section.section][t.required_right] === true;
      return hasAppAccess(user.rights, section.section);
    });
    const result: Tile[] = visible.map((t) => ({
      name: t.name,
      description_i18_nkey: t.description_i18n_key,
      uri: t.uri,
      icon: t.icon,
      coming_soon: t.coming_soon,
      router_path: t.router_path,
    }));
    if ((user.userManager || user.organizationManager) && user.organizationId) {
      const path = `/manage-organization/${user.organizationId}`;
      result.push({
        name: 'User management',
        description_i18_nkey: 'tile_user_management_description',
        uri: path,
        icon: 'users',
        coming_soon: false,
        router_path: path,
      });
    }
    return result;
  }

  /** The portal's feature flags. */
  async features(): Promise<Features> {
    const { db } = this.deps;
    return featuresFrom(await readFeatures(db));
  }

  /** The active warning messages, in the user's language. */
  notifications(user: SessionUser): Promise<{ text: string }[]> {
    const { db } = this.deps;
    return q.listActiveNotifications(db, user.languageCode);
  }

  /** Site settings the web app shows before login (footer links, sales contact, login video). */
  configuration(): PortalConfiguration {
    return siteSettings(this.deps.config);
  }
}

/** The site settings of a configuration: GET /api/portal/configuration, and in every page from its first byte (modules/web/prerendered.ts). */
export function siteSettings(
  config: Pick<Config, 'PRIVACY_STATEMENT_URL' | 'EULA_URL' | 'SALES_CONTACT_EMAIL' | 'LOGIN_VIDEO_URL'>,
): PortalConfiguration {
  return {
    privacy_statement_url: config.PRIVACY_STATEMENT_URL,
    eula_url: config.EULA_URL,
    sales_contact_email: config.SALES_CONTACT_EMAIL,
    login_video_url: config.LOGIN_VIDEO_URL,
  };
}
