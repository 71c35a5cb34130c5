import { randomBytes } from 'node:crypto';
import type { Database } from './db/client.js';

/**
 * A secret every instance must share: taken from configuration when given, else generated at
 * first start and kept in the database, so restarts and other instances use the same value.
 */
export async function sharedSecret(
  db: Database,
  name: string,
  configured: string | undefined,
  onGenerated: (name: string) => void,
): Promise<string> {
  if (configured) return configured;
  const candidate = randomBytes(32).toString('base64url');
  const inserted = await db.query('INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, candidate]);
  if (inserted.rowCount > 0) onGenerated(name);
  const { rows } = await db.query<{ value: string }>('SELECT value FROM settings WHERE name = $1', [name]);
  return rows[0]!.value;
}
