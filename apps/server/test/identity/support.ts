import { randomBytes } from 'node:crypto';
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
