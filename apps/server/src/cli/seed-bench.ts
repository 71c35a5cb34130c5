import { emptyRights } from '@partner-portal/contracts';
import type { Database } from '../db/client.js';
import { positiveIntArg, runCli } from './common.js';
import {
  analyzeSeededTables,
  countSeedMemberships,
  createMemberEmailSearchIndex,
  dropMemberEmailSearchIndex,
  findSeedRoot,
  insertBenchInvitations,
  insertBenchMembers,
  insertBenchOrganizationApps,
  insertBenchOrganizations,
} from './queries.js';

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
 * inserts from generate_series in chunks (queries.ts): a million members load in a few minutes.
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

export async function seedBench(
  db: Database,
  options: BenchOptions,
): Promise<{ organizations: number; members: number; invitations: number }> {
  const log = options.log ?? (() => undefined);
  const root = await findSeedRoot(db);
  if (!root) throw new Error('no root organization (run the portal once, or bootstrap)');
  const n = options.organizations;
  const partners = Math.max(1, Math.min(n, Math.ceil(n / 100)));
  const ids: string[] = [];
  const parents: string[] = [];
  const names: string[] = [];
  const paths: string[] = [];
  const depths: number[] = [];
  const canCreate: boolean[] = [];
  // ids are computed in SQL from the path (queries.ts, uuidOf); parents are referred to by path here
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
    await insertBenchOrganizations(db, root.id, {
      paths: paths.slice(start, end),
      parents: parents.slice(start, end),
      names: names.slice(start, end),
      depths: depths.slice(start, end),
      canCreate: canCreate.slice(start, end),
    });
  }
  await insertBenchOrganizationApps(db, paths, APPS);
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
  const existing = await countSeedMemberships(db);
  const bulk = M - existing >= BULK_THRESHOLD;
  if (bulk) await dropMemberEmailSearchIndex(db);
  try {
    for (let start = 1; start <= M; start += CHUNK) {
      const end = Math.min(M, start + CHUNK - 1);
      await insertBenchMembers(db, { start, end, syllables: SYLLABLES, paths, managerRights: manager, memberRights: member });
      log(`members: ${end} / ${M} (${Math.round((Date.now() - t1) / 1000)} s)`);
    }
  } finally {
    if (bulk) {
      const t2 = Date.now();
      await createMemberEmailSearchIndex(db);
      log(`trigram index rebuilt in ${Math.round((Date.now() - t2) / 1000)} s`);
    }
  }

  const invitations = Math.floor(M / 50);
  if (invitations > 0) {
    await insertBenchInvitations(db, invitations, paths);
  }
  await analyzeSeededTables(db);
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
