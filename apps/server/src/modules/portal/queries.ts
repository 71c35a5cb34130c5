import type { Queryable } from '../../db/client.js';

export interface TileRow {
  id: string;
  client_id: string | null;
  required_right: string | null;
  name: string;
  description_i18n_key: string;
  uri: string;
  icon: string;
  coming_soon: boolean;
  router_path: string | null;
}

export async function listTiles(db: Queryable): Promise<TileRow[]> {
  const { rows } = await db.query<TileRow>(
    'SELECT id, client_id, required_right, name, description_i18n_key, uri, icon, coming_soon, router_path FROM tiles ORDER BY sort_order, id',
  );
  return rows;
}

export async function listOrganizationClientIds(db: Queryable, organizationId: string): Promise<string[]> {
  const { rows } = await db.query<{ client_id: string }>('SELECT client_id FROM organization_apps WHERE organization_id = $1', [
    organizationId,
  ]);
  return rows.map((r) => r.client_id);
}

/** Active notifications now, in the language when translated (else the fallback text). */
export async function listActiveNotifications(db: Queryable, language: string): Promise<{ text: string }[]> {
  const { rows } = await db.query<{ text: string }>(
    `SELECT COALESCE(NULLIF(texts ->> $1, ''), text) AS text FROM notifications
     WHERE active AND (starts_at IS NULL OR starts_at <= now()) AND (ends_at IS NULL OR ends_at > now())
     ORDER BY created_at, id`,
    [language],
  );
  return rows;
}
