import { emptyRights } from '@partner-portal/contracts';
import type { Database } from '../db/client.js';
import { positiveIntArg, runCli } from './common.js';

/**
 * npm run seed:bench -- --organizations N --members M (default 10000 / 100000).
 *
 * A large synthetic tree under the provider's root organization: N organizations named
 * "Bench 00001"… (path segment bench-00001…), about 1% of them partners directly under the root
 * and the rest a 10-ary tree below them (4–5 levels), each with a few apps; M members spread over
 * them round-robin, with e-mail addresses made of pseudo-random syllables (so that substring
 * search is realistic), the first member of every organization a manager; and M/50 pending
 * invitations. Ids are derived from paths and numbers (md5, shaped as v4 UUIDs), so a second run adds only what is missing.
 * Organizations are written with multi-row inserts of unnest() arrays, members with
 * INSERT … SELECT over generate_series in chunks: a million members load in a few minutes.
 */

export interface BenchOptions {
  organizations: number;
  members: number;
  log?: (line: string) => void;
}

const SYLLABLES = [
  'an',
  'bo',
  'ca',
  'de',
  'el',
  'fi',
  'ga',
  'ho',
  'in',
  'jo',
  'ka',
  'li',
  'mo',
  'ne',
  'or',
  'pa',
  'qu',
  'ri',
  'sa',
  'te',
  'ul',
  've',
  'wi',
  'xa',
  'yo',
  'ze',
  'ar',
  'be',
  'ci',
  'do',
  'em',
  'fu',
  'gi',
  'ha',
  'is',
  'ju',
  'ko',
  'lu',
  'ma',
  'ni',
];
const APPS = ['partner-portal', 'loyalty-app', 'subscriptions-app', 'freshdesk', 'media-library', 'learnspace'];
const CHUNK = 50_000;
const BULK_THRESHOLD = 100_000;

/** A deterministic version-4-shaped UUID from an SQL text expression (md5 with the version and variant set). */
function uuidOf(expr: string): string {
  return `(overlay(overlay(md5(${expr}) placing '4' from 13) placing '8' from 17))::uuid`;
}

/** People number $1..$2: names from the syllables $3, e-mail first.last{g}@last.example.com. */
const PEOPLE = `WITH people AS (
  SELECT g, first, last, first || '.' || last || g || '@' || last || '.example.com' AS email
  FROM generate_series($1::int, $2::int) AS g,
  LATERAL (SELECT $3::text[] AS s) AS x,
  LATERAL (SELECT s[1 + (g * 7) % 40] || s[1 + (g * 13 + 5) % 40] || s[1 + (g / 40) % 40] AS first,
                  s[1 + (g * 17 + 3) % 40] || s[1 + (g * 3 + 11) % 40] || s[1 + (g / 1600) % 40] || s[1 + (g * 29) % 40] AS last) AS names
)`;

export async function seedBench(
  db: Database,
  options: BenchOptions,
): Promise<{ organizations: number; members: number; invitations: number }> {
  const log = options.log ?? (() => undefined);
  const root = (await db.query<{ id: string; path: string }>('SELECT id, path FROM organizations WHERE parent_id IS NULL')).rows[0];
  if (!root) throw new Error('no root organization (run the portal once, or bootstrap)');
  const n = options.organizations;
  const partners = Math.max(1, Math.min(n, Math.ceil(n / 100)));
  const ids: string[] = [];
  const parents: string[] = [];
  const names: string[] = [];
  const paths: string[] = [];
  const depths: number[] = [];
  const canCreate: boolean[] = [];
  // ids are computed in SQL from the path (uuidOf); parents are referred to by path here
  for (let i = 0; i < n; i++) {
    const name = `Bench ${String(i + 1).padStart(5, '0')}`;
    const segment = `bench-${String(i + 1).padStart(5, '0')}`;
    const parentIndex = i < partners ? -1 : Math.floor((i - partners) / 10);
    const parentPath = parentIndex < 0 ? root.path : paths[parentIndex]!;
    const path = `${parentPath}/${segment}`;
    const depth = path.split('/').length - 1;
    ids.push(path);
    parents.push(parentIndex < 0 ? '' : parentPath);
    names.push(name);
    paths.push(path);
    depths.push(depth);
    canCreate.push(depth < 6);
  }
  const t0 = Date.now();
  for (let start = 0; start < n; start += 10_000) {
    const end = Math.min(n, start + 10_000);
    await db.query(
      `INSERT INTO organizations (id, parent_id, name, path, depth, can_create_sub_organization, sub_organization_can_have_children)
       SELECT ${uuidOf('p')}, CASE WHEN pp = '' THEN $6::uuid ELSE ${uuidOf('pp')} END, nm, p, d, c, c
       FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::boolean[]) AS t(p, pp, nm, d, c)
       ON CONFLICT (path) DO NOTHING`,
      [
        paths.slice(start, end),
        parents.slice(start, end),
        names.slice(start, end),
        depths.slice(start, end),
        canCreate.slice(start, end),
        root.id,
      ],
    );
  }
  await db.query(
    `INSERT INTO organization_apps (organization_id, client_id, available_for_sub_organizations)
     SELECT ${uuidOf('p')}, a, true FROM unnest($1::text[]) AS p CROSS JOIN unnest($2::text[]) AS a
     ON CONFLICT DO NOTHING`,
    [paths, APPS],
  );
  log(`organizations: ${n} in ${Date.now() - t0} ms`);

  // members: user g belongs to organization g % n (ordered by the index above)
  const t1 = Date.now();
  const manager = emptyRights();
  manager.partner_portal.user_full_permission = true;
  manager.partner_portal.user_user_manager = true;
  manager.partner_portal.user_sub_organization_manager = true;
  const member = emptyRights();
  member.media_library.user_access = true;
  member.academy.user_access = true;
  const M = options.members;
  // A large load is much faster without the trigram index, which is built once at the end.
  const existing = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM memberships')).rows[0]?.n ?? 0;
  const bulk = M - existing >= BULK_THRESHOLD;
  if (bulk) await db.query('DROP INDEX IF EXISTS memberships_email_trgm_idx');
  try {
    for (let start = 1; start <= M; start += CHUNK) {
      const end = Math.min(M, start + CHUNK - 1);
      await db.transaction(async (tx) => {
        await tx.query('SET LOCAL statement_timeout = 0');
        await tx.query(
          `${PEOPLE}
         INSERT INTO users (id, email, first_name, last_name, language_code)
         SELECT ${uuidOf("'bench-user-' || g")}, email, initcap(first), initcap(last), (ARRAY['en','nl','de','fr','es'])[1 + g % 5]
         FROM people
         ON CONFLICT DO NOTHING`,
          [start, end, SYLLABLES],
        );
        // the same e-mail expression, so that no join with users is needed
        await tx.query(
          `${PEOPLE}
         INSERT INTO memberships (organization_id, user_id, email, organization_path, rights)
         SELECT ${uuidOf('o.path')}, ${uuidOf("'bench-user-' || g")}, email, o.path, CASE WHEN g <= $5 THEN $6::jsonb ELSE $7::jsonb END
         FROM people
         JOIN unnest($4::text[]) WITH ORDINALITY AS o(path, n) ON o.n = 1 + (g - 1) % $5
         ON CONFLICT (user_id) DO NOTHING`,
          [start, end, SYLLABLES, paths, n, JSON.stringify(manager), JSON.stringify(member)],
        );
      });
      log(`members: ${end} / ${M} (${Math.round((Date.now() - t1) / 1000)} s)`);
    }
  } finally {
    if (bulk) {
      const t2 = Date.now();
      await db.transaction(async (tx) => {
        await tx.query('SET LOCAL statement_timeout = 0');
        await tx.query("SET LOCAL maintenance_work_mem = '512MB'");
        // the definition of migration 0001
        await tx.query('CREATE INDEX IF NOT EXISTS memberships_email_trgm_idx ON memberships USING gin (lower(email) gin_trgm_ops)');
      });
      log(`trigram index rebuilt in ${Math.round((Date.now() - t2) / 1000)} s`);
    }
  }

  const invitations = Math.floor(M / 50);
  if (invitations > 0) {
    await db.query(
      `INSERT INTO invitations (organization_id, email, code_hash, language_code, expires_at, last_sent_at)
       SELECT ${uuidOf('o.path')}, 'invitee' || g || '@bench-invitations.example.com', md5(random()::text), 'en', now() + interval '14 days', now()
       FROM generate_series(1, $1::int) AS g
       JOIN unnest($2::text[]) WITH ORDINALITY AS o(path, n) ON o.n = 1 + (g * 7) % $3
       ON CONFLICT DO NOTHING`,
      [invitations, paths, n],
    );
  }
  await db.transaction(async (tx) => {
    await tx.query('SET LOCAL statement_timeout = 0');
    for (const table of ['organizations', 'organization_apps', 'memberships', 'users', 'invitations']) await tx.query(`ANALYZE ${table}`);
  });
  log(`done in ${Math.round((Date.now() - t0) / 1000)} s`);
  return { organizations: n, members: M, invitations };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  void runCli('seed:bench', async (services, args) => {
    const organizations = positiveIntArg(args, 'organizations', 10_000);
    const members = positiveIntArg(args, 'members', 100_000);
    if (organizations < 1) throw new Error('--organizations must be at least 1');
    console.log(`seed:bench: ${organizations} organizations, ${members} members into ${services.db.kind}`);
    const result = await seedBench(services.db, { organizations, members, log: (line) => console.log(`  ${line}`) });
    console.log(
      `seed:bench: done (${result.organizations} organizations, ${result.members} members, ${result.invitations} pending invitations)`,
    );
  });
}
