import type { Queryable } from './database.js';

/** The SQL of the table settings: values every instance shares (secrets.ts). */

/** Keep a value under a name unless one is kept there already; whether this one was kept. */
export async function keepSettingOnce(db: Queryable, name: string, value: string): Promise<boolean> {
  const inserted = await db.query('INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, value]);
  return inserted.rowCount > 0;
}

/** The value kept under a name. */
export async function settingValue(db: Queryable, name: string): Promise<string | undefined> {
  const { rows } = await db.query<{ value: string }>('SELECT value FROM settings WHERE name = $1', [name]);
  return rows[0]?.value;
}
