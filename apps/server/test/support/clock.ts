import type { TestPortal } from './portal.js';

/**
 * Test-only clock control for sign-in times. Tests own their database, so they move a user's last
 * sign-in into the past with plain SQL after a real sign-in has set it. Nothing in the server can
 * do this: the portal itself only ever writes now() (docs/decisions/018-the-administrators-day.md).
 */
export async function moveLastSignInBack(portal: TestPortal, userId: string, days: number): Promise<void> {
  await portal.services.db.query(
    `UPDATE users SET last_sign_in_at = last_sign_in_at - make_interval(days => $2::int) WHERE id = $1 AND last_sign_in_at IS NOT NULL`,
    [userId, days],
  );
}

export async function lastSignInOf(portal: TestPortal, userId: string): Promise<Date | null> {
  const { rows } = await portal.services.db.query<{ last_sign_in_at: Date | string | null }>(
    'SELECT last_sign_in_at FROM users WHERE id = $1',
    [userId],
  );
  const value = rows[0]?.last_sign_in_at ?? null;
  return value === null ? null : new Date(value);
}
