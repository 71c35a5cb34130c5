import { randomBytes } from 'node:crypto';
import { APP_SECTIONS, emptyRights, organizationPathSegment, type Rights } from '@partner-portal/contracts';
import type { Database } from './db/client.js';
import { JOB_ACTOR } from './http/actor.js';
import { organizationChange } from './modules/audit/service.js';
import { upsertBootstrapAdministrator } from './modules/identity/queries.js';
import { insertMembership } from './modules/members/queries.js';
import { countOrganizations, insertEveryApp, insertRootOrganization } from './modules/organizations/queries.js';
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
    if ((await countOrganizations(db)) > 0) return { created: false, email: options.adminEmail };
    const password = options.adminPassword ?? generatePassword();
    const passwordHash = await hashPassword(password);
    await db.transaction(async (tx) => {
      const path = organizationPathSegment(options.providerName) || 'provider';
      const organizationId = await insertRootOrganization(tx, options.providerName, path);
      await insertEveryApp(tx, organizationId);
      // a generated password was only ever printed in a log: the administrator must replace it
      const userId = await upsertBootstrapAdministrator(tx, {
        email: options.adminEmail,
        passwordHash,
        mustChangePassword: options.adminPassword === undefined,
      });
      await insertMembership(tx, {
        organizationId,
        userId,
        email: options.adminEmail,
        organizationPath: path,
        rights: providerAdministratorRights(),
      });
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
