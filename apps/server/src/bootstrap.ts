import { randomBytes } from 'node:crypto';
import { APP_SECTIONS, emptyRights, organizationPathSegment, type Rights } from '@partner-portal/contracts';
import type { Database } from './db/client.js';
import { JOB_ACTOR } from './http/actor.js';
import { organizationChange } from './modules/audit/service.js';
import { recordChange } from './modules/webhooks/changes.js';
import { hashPassword } from './password-hashing.js';

/** Every right a member of the provider's root organization can have: the administrator's rights. */
export function providerAdministratorRights(): Rights {
  const rights = emptyRights();
  for (const s of APP_SECTIONS) {
    for (const right of s.rights) {
      if (right.kind === 'full' || right.kind === 'non_provider_sub') continue;
      rights[s.section][right.name] = true;
    }
  }
  return rights;
}

/** A generated password that meets the policy (lower, upper, digit, special), about 150 bits. */
export function generatePassword(): string {
  return `${randomBytes(18).toString('base64url')}-Aa7`;
}

const BOOTSTRAP_LOCK_KEY = 72_110_402;

export interface BootstrapResult {
  created: boolean;
  email: string;
  /** the generated password, when one was generated (printed once) */
  generatedPassword?: string;
}

/**
 * On a database with no organization, create the provider's root organization (every app, may
 * create sub-organizations) and its administrator with full partner-portal rights and the
 * developer flag. When the password was generated, the administrator must change it at the first
 * sign-in (users.must_change_password). Idempotent and safe when several instances start at once.
 */
export async function bootstrap(
  db: Database,
  options: { adminEmail: string; adminPassword: string | undefined; providerName: string },
): Promise<BootstrapResult> {
  return db.withAdvisoryLock(BOOTSTRAP_LOCK_KEY, async () => {
    const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM organizations');
    if ((rows[0]?.n ?? 0) > 0) return { created: false, email: options.adminEmail };
    const password = options.adminPassword ?? generatePassword();
    const passwordHash = await hashPassword(password);
    await db.transaction(async (tx) => {
      const path = organizationPathSegment(options.providerName) || 'provider';
      const org = await tx.query<{ id: string }>(
        `INSERT INTO organizations (parent_id, name, path, depth, can_create_sub_organization, sub_organization_can_have_children)
         VALUES (NULL, $1, $2, 0, true, true) RETURNING id`,
        [options.providerName, path],
      );
      const organizationId = org.rows[0]!.id;
      await tx.query(
        `INSERT INTO organization_apps (organization_id, client_id, available_for_sub_organizations)
         SELECT $1, client_id, true FROM apps`,
        [organizationId],
      );
      const user = await tx.query<{ id: string }>(
        `INSERT INTO users (email, first_name, last_name, language_code, password_hash, is_developer, terms_accepted_at, password_changed_at, must_change_password)
         VALUES ($1, 'Portal', 'Administrator', 'en', $2, true, now(), now(), $3)
         ON CONFLICT (lower(email)) DO UPDATE SET is_developer = true RETURNING id`,
        // a generated password was only ever printed in a log: the administrator must replace it
        [options.adminEmail, passwordHash, options.adminPassword === undefined],
      );
      await tx.query(`INSERT INTO memberships (organization_id, user_id, email, organization_path, rights) VALUES ($1, $2, $3, $4, $5)`, [
        organizationId,
        user.rows[0]!.id,
        options.adminEmail,
        path,
        JSON.stringify(providerAdministratorRights()),
      ]);
      await recordChange(
        tx,
        JOB_ACTOR,
        organizationChange({ id: organizationId, path }, 'organization.bootstrap', undefined, {
          name: options.providerName,
          administrator: options.adminEmail,
        }),
      );
    });
    return { created: true, email: options.adminEmail, ...(options.adminPassword ? {} : { generatedPassword: password }) };
  });
}
