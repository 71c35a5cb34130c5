import type { Database, Queryable } from '../db/client.js';

/**
 * SQL of the seeding tools (seed-demo.ts, seed-bench.ts): they write whole organizations with
 * their members and invitations at once, as no module's service would, so their statements are
 * here rather than in the modules' queries files.
 */

/** An organization as the seeding tools place others below it. */
export interface SeedOrgRef {
  id: string;
  path: string;
  depth: number;
}

export async function findSeedRoot(db: Queryable): Promise<SeedOrgRef | undefined> {
  return (await db.query<SeedOrgRef>('SELECT id, path, depth FROM organizations WHERE parent_id IS NULL')).rows[0];
}

/** The organization at `path`, made below `parent` with its apps and e-mail domains unless it is there (each part kept as it is). */
export async function ensureSeedOrganization(
  db: Queryable,
  o: { parent: SeedOrgRef; name: string; path: string; canCreate: boolean; apps: string[]; domains: string[] | undefined },
): Promise<SeedOrgRef> {
  await db.query(
    `INSERT INTO organizations (parent_id, name, path, depth, can_create_sub_organization, sub_organization_can_have_children)
     VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT (path) DO NOTHING`,
    [o.parent.id, o.name, o.path, o.parent.depth + 1, o.canCreate],
  );
  const row = (await db.query<SeedOrgRef>('SELECT id, path, depth FROM organizations WHERE path = $1', [o.path])).rows[0]!;
  await db.query(
    `INSERT INTO organization_apps (organization_id, client_id, available_for_sub_organizations)
     SELECT $1, unnest($2::text[]), true ON CONFLICT DO NOTHING`,
    [row.id, o.apps],
  );
  if (o.domains?.length) {
    await db.query(
      'INSERT INTO organization_email_domains (organization_id, domain) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING',
      [row.id, o.domains],
    );
  }
  return row;
}

export async function seedOrganizationApps(db: Queryable, organizationId: string): Promise<string[]> {
  const { rows } = await db.query<{ client_id: string }>('SELECT client_id FROM organization_apps WHERE organization_id = $1', [
    organizationId,
  ]);
  return rows.map((r) => r.client_id);
}

/** The user of an organization's first membership (the administrator of the root). */
export async function firstMemberOf(db: Queryable, organizationId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ id: string }>(
    'SELECT user_id AS id FROM memberships WHERE organization_id = $1 ORDER BY created_at LIMIT 1',
    [organizationId],
  );
  return rows[0]?.id;
}

/** A member with a password, unless the address is registered: then undefined and nothing is written. */
export async function insertSeedMember(
  db: Queryable,
  m: { organization: SeedOrgRef; email: string; first: string; last: string; language: string; passwordHash: string; rights: unknown },
): Promise<string | undefined> {
  const inserted = await db.query<{ id: string }>(
    `INSERT INTO users (email, first_name, last_name, language_code, password_hash, terms_accepted_at, password_changed_at)
     VALUES ($1, $2, $3, $4, $5, now(), now()) ON CONFLICT (lower(email)) DO NOTHING RETURNING id`,
    [m.email, m.first, m.last, m.language, m.passwordHash],
  );
  const userId = inserted.rows[0]?.id;
  if (!userId) return undefined;
  await db.query(
    'INSERT INTO memberships (organization_id, user_id, email, organization_path, rights) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (user_id) DO NOTHING',
    [m.organization.id, userId, m.email, m.organization.path, JSON.stringify(m.rights)],
  );
  return userId;
}

export async function seedInvitationExists(db: Queryable, organizationId: string, email: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM invitations WHERE lower(email) = lower($1) AND organization_id = $2', [
    email,
    organizationId,
  ]);
  return rows.length > 0;
}

export async function findSeedUserId(db: Queryable, email: string): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM users WHERE lower(email) = lower($1)', [email]);
  return rows[0]?.id ?? null;
}

/** An invitation in the given state (accepted and revoked ones as of now), its id. */
export async function insertSeedInvitation(
  db: Queryable,
  i: {
    organizationId: string;
    email: string;
    state: string;
    codeHash: string;
    language: string;
    invitedBy: string | null;
    acceptedUserId: string | null;
    ttlHours: number;
  },
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO invitations (organization_id, email, state, code_hash, language_code, invited_by, accepted_user_id, last_sent_at, expires_at, accepted_at, revoked_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, now(), now() + make_interval(hours => $8),
             CASE WHEN $3 = 'ACCEPTED' THEN now() END, CASE WHEN $3 = 'REVOKED' THEN now() END)
     RETURNING id`,
    [i.organizationId, i.email, i.state, i.codeHash, i.language, i.invitedBy, i.acceptedUserId, i.ttlHours],
  );
  return rows[0]!.id;
}

/** A deterministic version-4-shaped UUID from an SQL text expression (md5 with the version and variant set): seed-bench.ts's ids. */
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

/** Organizations by path, their ids derived from it (a parent path '' is the root `rootId`); those there are kept. */
export async function insertBenchOrganizations(
  db: Queryable,
  rootId: string,
  o: { paths: string[]; parents: string[]; names: string[]; depths: number[]; canCreate: boolean[] },
): Promise<void> {
  await db.query(
    `INSERT INTO organizations (id, parent_id, name, path, depth, can_create_sub_organization, sub_organization_can_have_children)
     SELECT ${uuidOf('p')}, CASE WHEN pp = '' THEN $6::uuid ELSE ${uuidOf('pp')} END, nm, p, d, c, c
     FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::boolean[]) AS t(p, pp, nm, d, c)
     ON CONFLICT (path) DO NOTHING`,
    [o.paths, o.parents, o.names, o.depths, o.canCreate, rootId],
  );
}

/** Every app of `apps` for each organization of `paths`. */
export async function insertBenchOrganizationApps(db: Queryable, paths: string[], apps: string[]): Promise<void> {
  await db.query(
    `INSERT INTO organization_apps (organization_id, client_id, available_for_sub_organizations)
     SELECT ${uuidOf('p')}, a, true FROM unnest($1::text[]) AS p CROSS JOIN unnest($2::text[]) AS a
     ON CONFLICT DO NOTHING`,
    [paths, apps],
  );
}

export async function countSeedMemberships(db: Queryable): Promise<number> {
  return (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM memberships')).rows[0]?.n ?? 0;
}

/** A large load is much faster without the trigram index of the members' search (createMemberEmailSearchIndex builds it again). */
export async function dropMemberEmailSearchIndex(db: Queryable): Promise<void> {
  await db.query('DROP INDEX IF EXISTS memberships_email_trgm_idx');
}

export async function createMemberEmailSearchIndex(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('SET LOCAL statement_timeout = 0');
    await tx.query("SET LOCAL maintenance_work_mem = '512MB'");
    // the definition of migration 0001
    await tx.query('CREATE INDEX IF NOT EXISTS memberships_email_trgm_idx ON memberships USING gin (lower(email) gin_trgm_ops)');
  });
}

/**
 * Users number `start`..`end` (PEOPLE) and their memberships in one transaction: user g belongs to
 * the organization of `paths` at (g - 1) % paths.length, a manager if g <= paths.length.
 */
export async function insertBenchMembers(
  db: Database,
  m: { start: number; end: number; syllables: string[]; paths: string[]; managerRights: unknown; memberRights: unknown },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('SET LOCAL statement_timeout = 0');
    await tx.query(
      `${PEOPLE}
       INSERT INTO users (id, email, first_name, last_name, language_code)
       SELECT ${uuidOf("'bench-user-' || g")}, email, initcap(first), initcap(last), (ARRAY['en','nl','de','fr','es'])[1 + g % 5]
       FROM people
       ON CONFLICT DO NOTHING`,
      [m.start, m.end, m.syllables],
    );
    // the same e-mail expression, so that no join with users is needed
    await tx.query(
      `${PEOPLE}
       INSERT INTO memberships (organization_id, user_id, email, organization_path, rights)
       SELECT ${uuidOf('o.path')}, ${uuidOf("'bench-user-' || g")}, email, o.path, CASE WHEN g <= $5 THEN $6::jsonb ELSE $7::jsonb END
       FROM people
       JOIN unnest($4::text[]) WITH ORDINALITY AS o(path, n) ON o.n = 1 + (g - 1) % $5
       ON CONFLICT (user_id) DO NOTHING`,
      [m.start, m.end, m.syllables, m.paths, m.paths.length, JSON.stringify(m.managerRights), JSON.stringify(m.memberRights)],
    );
  });
}

/** `count` pending invitations spread over the organizations of `paths`. */
export async function insertBenchInvitations(db: Queryable, count: number, paths: string[]): Promise<void> {
  await db.query(
    `INSERT INTO invitations (organization_id, email, code_hash, language_code, expires_at, last_sent_at)
     SELECT ${uuidOf('o.path')}, 'invitee' || g || '@bench-invitations.example.com', md5(random()::text), 'en', now() + interval '14 days', now()
     FROM generate_series(1, $1::int) AS g
     JOIN unnest($2::text[]) WITH ORDINALITY AS o(path, n) ON o.n = 1 + (g * 7) % $3
     ON CONFLICT DO NOTHING`,
    [count, paths, paths.length],
  );
}

export async function analyzeSeededTables(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('SET LOCAL statement_timeout = 0');
    for (const table of ['organizations', 'organization_apps', 'memberships', 'users', 'invitations']) await tx.query(`ANALYZE ${table}`);
  });
}
