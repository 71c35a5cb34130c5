import { randomBytes } from 'node:crypto';
import type { Database } from './db/client.js';
import { keepSettingOnce, settingValue } from './db/settings-queries.js';

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
  if (await keepSettingOnce(db, name, candidate)) onGenerated(name);
  return (await settingValue(db, name))!;
}
