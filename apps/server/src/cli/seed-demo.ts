import { applyRightsRules, emptyRights, organizationPathSegment } from '@partner-portal/contracts';
import { hashPassword } from '../password-hashing.js';
import type { Config } from '../config.js';
import type { Database, Queryable } from '../db/client.js';
import { JOB_ACTOR } from '../http/actor.js';
import { hashSecret, newSecret } from '../http/session.js';
import { organizationChange } from '../modules/audit/service.js';
import { recordChange } from '../modules/webhooks/changes.js';
import { runCli } from './common.js';
import {
  ensureSeedOrganization,
  findSeedRoot,
  findSeedUserId,
  firstMemberOf,
  insertSeedInvitation,
  insertSeedMember,
  seedInvitationExists,
  seedOrganizationApps,
  type SeedOrgRef,
} from './queries.js';
import { INVITATIONS, MEMBERS, ORGANIZATIONS, type DemoOrg } from './seed-demo-data.js';

/**
 * npm run seed:demo: a small, realistic demo tree under the provider's root organization, with
 * members of several roles (all with the password DEMO_PASSWORD) and pending, accepted and revoked
 * invitations. Idempotent: organizations, users, memberships and invitations that exist (by path
 * or e-mail address) are left as they are.
 */
export const DEMO_PASSWORD = 'Demo-Passw0rd!';

async function ensureOrganization(db: Queryable, parent: SeedOrgRef, org: DemoOrg): Promise<SeedOrgRef> {
  const path = `${parent.path}/${organizationPathSegment(org.name)}`;
  return ensureSeedOrganization(db, { parent, name: org.name, path, canCreate: org.canCreate, apps: org.apps, domains: org.domains });
}

export async function seedDemo(
  db: Database,
  config: Pick<Config, 'publicUrl' | 'INVITATION_TTL_HOURS'>,
): Promise<{ created: string[]; links: string[] }> {
  const created: string[] = [];
  const links: string[] = [];
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db.transaction(async (tx) => {
    const root = await findSeedRoot(tx);
    if (!root) throw new Error('no root organization');
    const orgs = new Map<string, SeedOrgRef>();
    for (const org of ORGANIZATIONS) {
      const parent = org.parent ? orgs.get(org.parent)! : root;
      orgs.set(org.name, await ensureOrganization(tx, parent, org));
    }
    const adminId = await firstMemberOf(tx, root.id);
    for (const m of MEMBERS) {
      const org = m.organization ? orgs.get(m.organization)! : root;
      const raw = emptyRights();
      m.rights(raw);
      const rights = applyRightsRules(raw, {
        isProviderOrganization: org.depth === 0,
        organizationClientIds: await seedOrganizationApps(tx, org.id),
        features: {
          control_tower_enabled: true,
          control_tower_enabled_for_non_nedap_users: true,
          ordering_tools_enabled: true,
          ordering_tools_enabled_for_non_nedap_users: true,
        },
        editorIsDeveloper: true,
      });
      const member = { organization: org, email: m.email, first: m.first, last: m.last, language: m.language, passwordHash, rights };
      if (!(await insertSeedMember(tx, member))) continue;
      created.push(`member ${m.email} (${org.path})`);
    }
    for (const inv of INVITATIONS) {
      const org = orgs.get(inv.organization)!;
      if (await seedInvitationExists(tx, org.id, inv.email)) continue;
      const code = newSecret();
      const accepted = inv.state === 'ACCEPTED' ? await findSeedUserId(tx, inv.email) : null;
      const invitationId = await insertSeedInvitation(tx, {
        organizationId: org.id,
        email: inv.email,
        state: inv.state,
        codeHash: hashSecret(code),
        language: inv.language,
        invitedBy: adminId ?? null,
        acceptedUserId: accepted,
        ttlHours: config.INVITATION_TTL_HOURS,
      });
      created.push(`invitation ${inv.email} (${inv.state})`);
      if (inv.state === 'PENDING') links.push(`${inv.email}: ${config.publicUrl}/invitation/${invitationId}?code=${code}`);
    }
    await recordChange(tx, JOB_ACTOR, organizationChange(root, 'demo.seed', undefined, { created: created.length }));
  });
  return { created, links };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  void runCli('seed:demo', async (services) => {
    const { created, links } = await seedDemo(services.db, services.config);
    if (!created.length) {
      console.log('seed:demo: the demo data is already there; nothing to do');
      return;
    }
    console.log(`seed:demo: created ${created.length} items`);
    for (const line of created) console.log(`  ${line}`);
    console.log(`\nEvery demo member signs in with the password ${DEMO_PASSWORD}`);
    if (links.length) {
      console.log('Pending invitations (links work once):');
      for (const link of links) console.log(`  ${link}`);
    }
  });
}
