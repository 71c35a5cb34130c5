import { applyRightsRules, emptyRights, organizationPathSegment } from '@partner-portal/contracts';
import { hashPassword } from '../password-hashing.js';
import type { Config } from '../config.js';
import type { Database, Queryable } from '../db/client.js';
import { JOB_ACTOR } from '../http/actor.js';
import { hashSecret, newSecret } from '../http/session.js';
import { organizationChange } from '../modules/audit/service.js';
import { recordChange } from '../modules/webhooks/changes.js';
import { runCli } from './common.js';
import { INVITATIONS, MEMBERS, ORGANIZATIONS, type DemoOrg } from './seed-demo-data.js';

/**
 * npm run seed:demo: a small, realistic demo tree under the provider's root organization, with
 * members of several roles (all with the password DEMO_PASSWORD) and pending, accepted and revoked
 * invitations. Idempotent: organizations, users, memberships and invitations that exist (by path
 * or e-mail address) are left as they are.
 */
export const DEMO_PASSWORD = 'Demo-Passw0rd!';

interface OrgRef {
  id: string;
  path: string;
  depth: number;
}

async function ensureOrganization(db: Queryable, parent: OrgRef, org: DemoOrg): Promise<OrgRef> {
  const path = `${parent.path}/${organizationPathSegment(org.name)}`;
  await db.query(
    `INSERT INTO organizations (parent_id, name, path, depth, can_create_sub_organization, sub_organization_can_have_children)
     VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT (path) DO NOTHING`,
    [parent.id, org.name, path, parent.depth + 1, org.canCreate],
  );
  const row = (await db.query<OrgRef>('SELECT id, path, depth FROM organizations WHERE path = $1', [path])).rows[0]!;
  await db.query(
    `INSERT INTO organization_apps (organization_id, client_id, available_for_sub_organizations)
     SELECT $1, unnest($2::text[]), true ON CONFLICT DO NOTHING`,
    [row.id, org.apps],
  );
  if (org.domains?.length) {
    await db.query(
      'INSERT INTO organization_email_domains (organization_id, domain) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING',
      [row.id, org.domains],
    );
  }
  return row;
}

export async function seedDemo(
  db: Database,
  config: Pick<Config, 'publicUrl' | 'INVITATION_TTL_HOURS'>,
): Promise<{ created: string[]; links: string[] }> {
  const created: string[] = [];
  const links: string[] = [];
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db.transaction(async (tx) => {
    const root = (await tx.query<OrgRef>('SELECT id, path, depth FROM organizations WHERE parent_id IS NULL')).rows[0];
    if (!root) throw new Error('no root organization');
    const orgs = new Map<string, OrgRef>();
    for (const org of ORGANIZATIONS) {
      const parent = org.parent ? orgs.get(org.parent)! : root;
      orgs.set(org.name, await ensureOrganization(tx, parent, org));
    }
    const apps = async (orgId: string) =>
      (await tx.query<{ client_id: string }>('SELECT client_id FROM organization_apps WHERE organization_id = $1', [orgId])).rows.map(
        (r) => r.client_id,
      );
    const admin = (
      await tx.query<{ id: string }>('SELECT user_id AS id FROM memberships WHERE organization_id = $1 ORDER BY created_at LIMIT 1', [
        root.id,
      ])
    ).rows[0];
    for (const m of MEMBERS) {
      const org = m.organization ? orgs.get(m.organization)! : root;
      const raw = emptyRights();
      m.rights(raw);
      const rights = applyRightsRules(raw, {
        isProviderOrganization: org.depth === 0,
        organizationClientIds: await apps(org.id),
        features: {
          control_tower_enabled: true,
          control_tower_enabled_for_non_nedap_users: true,
          ordering_tools_enabled: true,
          ordering_tools_enabled_for_non_nedap_users: true,
        },
        editorIsDeveloper: true,
      });
      const inserted = await tx.query<{ id: string }>(
        `INSERT INTO users (email, first_name, last_name, language_code, password_hash, terms_accepted_at, password_changed_at)
         VALUES ($1, $2, $3, $4, $5, now(), now()) ON CONFLICT (lower(email)) DO NOTHING RETURNING id`,
        [m.email, m.first, m.last, m.language, passwordHash],
      );
      if (!inserted.rows[0]) continue;
      await tx.query(
        'INSERT INTO memberships (organization_id, user_id, email, organization_path, rights) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (user_id) DO NOTHING',
        [org.id, inserted.rows[0].id, m.email, org.path, JSON.stringify(rights)],
      );
      created.push(`member ${m.email} (${org.path})`);
    }
    for (const inv of INVITATIONS) {
      const org = orgs.get(inv.organization)!;
      const exists = await tx.query('SELECT 1 FROM invitations WHERE lower(email) = lower($1) AND organization_id = $2', [
        inv.email,
        org.id,
      ]);
      if (exists.rows.length) continue;
      const code = newSecret();
      const accepted =
        inv.state === 'ACCEPTED'
          ? ((await tx.query<{ id: string }>('SELECT id FROM users WHERE lower(email) = lower($1)', [inv.email])).rows[0]?.id ?? null)
          : null;
      const row = await tx.query<{ id: string }>(
        `INSERT INTO invitations (organization_id, email, state, code_hash, language_code, invited_by, accepted_user_id, last_sent_at, expires_at, accepted_at, revoked_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, now(), now() + make_interval(hours => $8),
                 CASE WHEN $3 = 'ACCEPTED' THEN now() END, CASE WHEN $3 = 'REVOKED' THEN now() END)
         RETURNING id`,
        [org.id, inv.email, inv.state, hashSecret(code), inv.language, admin?.id ?? null, accepted, config.INVITATION_TTL_HOURS],
      );
      created.push(`invitation ${inv.email} (${inv.state})`);
      if (inv.state === 'PENDING') links.push(`${inv.email}: ${config.publicUrl}/invitation/${row.rows[0]!.id}?code=${code}`);
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
