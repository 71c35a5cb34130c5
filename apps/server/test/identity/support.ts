import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { hashPassword } from '../../src/password-hashing.js';
import type { TestPortal } from '../support/portal.js';

export interface TestUser {
  id: string;
  email: string;
  password: string;
}

/** A user in the root organization, made directly in the database. */
export async function createUser(
  portal: TestPortal,
  options: {
    email?: string;
    password?: string | null;
    language?: string;
    firstName?: string;
    externalIdp?: string;
    externalSubject?: string;
  } = {},
): Promise<TestUser> {
  const email = options.email ?? `user-${randomBytes(5).toString('hex')}@example.com`;
  const password = options.password === undefined ? 'Tr1cky-Horse-Battery' : options.password;
  const { rows } = await portal.services.db.query<{ id: string }>(
    `INSERT INTO users (email, first_name, last_name, language_code, password_hash, external_idp, external_subject, terms_accepted_at)
     VALUES ($1, $2, 'Tester', $3, $4, $5, $6, now()) RETURNING id`,
    [
      email,
      options.firstName ?? 'Terry',
      options.language ?? 'en',
      password ? await hashPassword(password) : null,
      options.externalIdp ?? null,
      options.externalSubject ?? null,
    ],
  );
  const id = rows[0]!.id;
  await portal.services.db.query(
    `INSERT INTO memberships (organization_id, user_id, email, organization_path, rights) VALUES ($1, $2, $3, 'nedap', '{}')`,
    [portal.rootOrganizationId, id, email],
  );
  return { id, email, password: password ?? '' };
}

/** The Set-Cookie line of a cookie, for checking its attributes. */
export function setCookieLine(headers: Headers, name: string): string | undefined {
  return headers.getSetCookie().find((l) => l.startsWith(`${name}=`));
}

/**
 * Ask for a password reset (204) and read the /reset-password link of the e-mail it sends (the
 * newest to the address): the user id and the code it carries.
 */
export async function mailedResetLink(portal: TestPortal, email: string): Promise<{ userId: string; code: string }> {
  const before = portal.smtp.to(email).length;
  expect((await portal.client().post('/api/identity/forgot-password', { email_address: email })).status).toBe(204);
  await portal.smtp.waitFor(email, () => portal.smtp.to(email).length > before);
  const link = portal.smtp
    .to(email)
    .at(-1)!
    .links.find((l) => l.includes('/reset-password?'));
  expect(link, 'the reset e-mail carries a /reset-password link').toBeTruthy();
  const url = new URL(link!);
  return { userId: url.searchParams.get('userId')!, code: url.searchParams.get('code')! };
}

/** PUT /api/identity/reset-password: a new password for the user, with the code of a reset link. */
export function resetPassword(portal: TestPortal, userId: string, token: string, password: string, confirm = password) {
  return portal.client().put('/api/identity/reset-password', { user_id: userId, token, password, confirm_password: confirm });
}
