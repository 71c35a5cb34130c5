import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedBench } from '../../src/cli/seed-bench.js';
import { SEARCH_MEMBERS_SQL } from '../../src/modules/members/queries.js';
import { subtreeCondition } from '../../src/db/sql.js';
import { startPortal, type TestPortal } from '../support/portal.js';

/**
 * seed:bench with small numbers (200 organizations, 2000 members): the tree and the search answer
 * correctly on its data, and the subtree and e-mail searches are served by their indexes.
 */
let portal: TestPortal;
const CLI = fileURLToPath(new URL('../../dist/cli/seed-bench.js', import.meta.url));

beforeAll(async () => {
  portal = await startPortal();
  if (portal.config.DATABASE_URL && existsSync(CLI)) {
    // the real command, as `npm run seed:bench -- --organizations 200 --members 2000` runs it
    const run = spawnSync(process.execPath, [CLI, '--organizations', '200', '--members', '2000'], {
      env: { ...process.env, DATABASE_URL: portal.config.DATABASE_URL, LOG_LEVEL: 'warn', BOOTSTRAP_ADMIN_PASSWORD: 'Admin-Passw0rd!' },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('seed:bench: done');
  } else {
    await seedBench(portal.services.db, { organizations: 200, members: 2000 });
  }
}, 180_000);
afterAll(() => portal?.close());

const count = async (sql: string, params: unknown[] = []) => (await portal.services.db.query<{ n: number }>(sql, params)).rows[0]!.n;

function walk(node: any, visit: (n: any) => void): void {
  visit(node);
  for (const c of node.children) walk(c, visit);
}

describe('seed:bench data', () => {
  it('has the requested numbers and is idempotent', async () => {
    expect(await count("SELECT count(*)::int AS n FROM organizations WHERE name LIKE 'Bench %'")).toBe(200);
    expect(await count("SELECT count(*)::int AS n FROM users WHERE email LIKE '%.example.com' AND id <> $1", [portal.adminUserId])).toBe(
      2000,
    );
    await seedBench(portal.services.db, { organizations: 200, members: 2000 });
    expect(await count("SELECT count(*)::int AS n FROM organizations WHERE name LIKE 'Bench %'")).toBe(200);
    expect(await count('SELECT count(*)::int AS n FROM memberships')).toBe(2001);
  });

  it('answers the tree: every organization once, children sorted by path, member counts that add up', async () => {
    const admin = await portal.sessionFor(portal.adminUserId);
    const res = await admin.get('/api/organizations/tree');
    expect(res.status).toBe(200);
    let nodes = 0;
    let members = 0;
    walk(res.body, (n) => {
      nodes++;
      members += n.members;
      const paths = n.children.map((c: any) => c.path);
      expect(paths).toEqual([...paths].sort());
      for (const c of n.children) expect(c.path.startsWith(`${n.path}/`)).toBe(true);
    });
    expect(nodes).toBe(201);
    expect(members).toBe(2001);
    // a partner's manager sees exactly its subtree
    const partner = (
      await portal.services.db.query<{ id: string; path: string }>("SELECT id, path FROM organizations WHERE name = 'Bench 00001'")
    ).rows[0]!;
    const manager = (
      await portal.services.db.query<{ user_id: string }>(
        "SELECT user_id FROM memberships WHERE organization_id = $1 AND rights -> 'partner_portal' ->> 'user_full_permission' = 'true' LIMIT 1",
        [partner.id],
      )
    ).rows[0]!;
    const own = await (await portal.sessionFor(manager.user_id)).get('/api/organizations/tree');
    expect(own.status).toBe(200);
    let ownNodes = 0;
    walk(own.body, () => ownNodes++);
    expect(ownNodes).toBe(
      await count(`SELECT count(*)::int AS n FROM organizations WHERE ${subtreeCondition('path', '$1')}`, [partner.path]),
    );
  });

  it('answers the search like a plain scan would, sorted by organization path then e-mail', async () => {
    const admin = await portal.sessionFor(portal.adminUserId);
    const sample = (
      await portal.services.db.query<{ email: string }>(
        "SELECT email FROM memberships WHERE email LIKE '%.example.com' ORDER BY email LIMIT 1 OFFSET 777",
      )
    ).rows[0]!.email;
    const needle = sample.split('@')[0]!.slice(2, 6).toUpperCase();
    const partner = (
      await portal.services.db.query<{ id: string; path: string }>("SELECT id, path FROM organizations WHERE name = 'Bench 00002'")
    ).rows[0]!;
    const expected = (
      await portal.services.db.query<{ email: string; organization_path: string }>(
        `SELECT email, organization_path FROM memberships WHERE ${subtreeCondition('organization_path', '$1')} AND position(lower($2) in lower(email)) > 0 ORDER BY organization_path, lower(email)`,
        [partner.path, needle],
      )
    ).rows;
    const res = await admin.get(`/api/members/search?organizationId=${partner.id}&q=${encodeURIComponent(needle)}&pageSize=200`);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(expected.length);
    expect(res.body.members.map((m: any) => m.email_address)).toEqual(expected.slice(0, 200).map((r) => r.email));
    const all = await admin.get(
      `/api/members/search?organizationId=${portal.rootOrganizationId}&q=${encodeURIComponent(sample.slice(0, -3).toUpperCase())}`,
    );
    expect(all.body.members.map((m: any) => m.email_address)).toContain(sample);
  });

  it('serves subtree and e-mail searches with their indexes (EXPLAIN)', async () => {
    const partner = (await portal.services.db.query<{ path: string }>("SELECT path FROM organizations WHERE name = 'Bench 00001'"))
      .rows[0]!;
    const plans = await portal.services.db.transaction(async (tx) => {
      await tx.query('ANALYZE');
      // with this little data a sequential scan may be cheaper: forbid it, to show the indexes serve the queries
      await tx.query('SET LOCAL enable_seqscan = off');
      const explain = async (sql: string, params: unknown[]) =>
        (await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params)).rows.map((r) => r['QUERY PLAN']).join('\n');
      return {
        organizations: await explain(`SELECT id FROM organizations WHERE ${subtreeCondition('path', '$1')}`, [partner.path]),
        members: await explain(SEARCH_MEMBERS_SQL(false), [partner.path, 50, 0]),
        email: await explain(`SELECT count(*) FROM memberships m WHERE lower(m.email) LIKE $1`, ['%bonea%']),
        // the ordered walk (the plan for a substring on a big subtree) reads every column it needs
        // from the index, no heap row per entry (0031); the trigram plan is forbidden (last: it stays so) to show it
        membersWithText: await tx
          .query('SET LOCAL enable_bitmapscan = off')
          .then(() => explain(SEARCH_MEMBERS_SQL(true), [partner.path, 50, 0, '%eor%'])),
      };
    });
    expect(plans.organizations).toContain('organizations_path_key');
    expect(plans.members).toMatch(/memberships_path_email_idx/);
    expect(plans.membersWithText).toMatch(/Index Only Scan using memberships_path_email_idx/);
    expect(plans.email).toContain('memberships_email_trgm_idx');
  });
});
