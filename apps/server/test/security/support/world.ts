import { randomBytes, randomUUID } from 'node:crypto';
import { SERVICE_ACCOUNT_SCOPE } from '@partner-portal/contracts';
import { hashPassword } from '../../../src/password-hashing.js';
import { hashSecret } from '../../../src/http/session.js';
import { HttpClient, type HttpResponse, type RequestOptions } from '../../support/http.js';
import type { TestPortal } from '../../support/portal.js';

/**
 * A small organization tree and one user per actor of the authorization matrix, inserted with SQL
 * (migrations/0001_init.sql) so that the security tests do not depend on the API under test:
 *
 *   root (provider, bootstrap)
 *   └── partner                 ← ancestorManager (full partner-portal rights)
 *       ├── dealer-a            ← member, userManager, organizationManager, external (plain),
 *       │   │                       serviceAccount (a machine with both manager rights)
 *       │   └── north           ← the target organization of most routes
 *       └── dealer-b            ← siblingManager (full partner-portal rights)
 *
 * The service account (migration 0070) is a row as well; its client takes a bearer token from
 * /connect/token (client_credentials) and calls /api with it, as the provider's applications do
 * (docs/integrations.md, "Service accounts"). The one use of the API is fresh.mailedInvitation:
 * an invitation made through the API, for the rows that accept one with the code of its mail.
 */
export const ACTORS = [
  'anonymous',
  'member',
  'userManager',
  'organizationManager',
  'siblingManager',
  'ancestorManager',
  'external',
  'serviceAccount',
] as const;
export type ActorName = (typeof ACTORS)[number];
/** The actors that are people with an account (anonymous and the service account are not). */
export type PersonName = Exclude<ActorName, 'anonymous' | 'serviceAccount'>;

export const USER_PASSWORD = 'Secur1ty-Passw0rd!';

export interface OrgRow {
  id: string;
  path: string;
  name: string;
}

export interface World {
  portal: TestPortal;
  partner: OrgRow;
  dealerA: OrgRow;
  north: OrgRow;
  dealerB: OrgRow;
  users: Record<PersonName, { id: string; email: string; membershipId: string }>;
  /** dealer-a's service account, with userManager and organizationManager rights */
  serviceAccount: { id: string; clientId: string; secret: string };
  /** a fresh signed-in client of the actor (anonymous: no cookie; serviceAccount: a fresh bearer token, no cookie) */
  client(actor: ActorName): Promise<HttpClient>;
  /** fresh resources in the target subtree (north), for routes that change or remove them */
  fresh: {
    organization(parent?: OrgRow): Promise<OrgRow>;
    member(org?: OrgRow, rights?: object): Promise<{ userId: string; membershipId: string; email: string }>;
    invitation(org?: OrgRow, state?: string): Promise<{ id: string; code: string; email: string }>;
    /** an invitation sent by the provider's administrator through the API, with the code from its e-mail */
    mailedInvitation(org?: OrgRow): Promise<{ id: string; code: string; email: string }>;
    resetToken(userId: string): Promise<string>;
  };
}

const FULL_PORTAL = { partner_portal: { user_full_permission: true } };

export function uniqueEmail(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString('hex')}@sec.example.com`;
}

let passwordHashCache: Promise<string> | undefined;

/**
 * A service account's client: every request carries its bearer token and no cookie (a cookie
 * beside the token is refused, http/bearer.ts), as an application of the provider calls /api.
 */
export class BearerHttpClient extends HttpClient {
  constructor(
    baseUrl: string,
    readonly token: string,
  ) {
    super(baseUrl);
  }

  override request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<HttpResponse<T>> {
    this.cookies.clear();
    return super.request<T>(method, path, { ...options, headers: { authorization: `Bearer ${this.token}`, ...options.headers } });
  }
}

/** A bearer token of a service account from POST /connect/token (client_credentials, HTTP Basic, scope partner_portal_api). */
export async function serviceAccountToken(portal: TestPortal, account: { clientId: string; secret: string }): Promise<string> {
  const res = await fetch(`${portal.url}/connect/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${encodeURIComponent(account.clientId)}:${encodeURIComponent(account.secret)}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope: SERVICE_ACCOUNT_SCOPE }).toString(),
  });
  const body = (await res.json()) as { access_token?: string };
  if (res.status !== 200 || !body.access_token) throw new Error(`no token for ${account.clientId}: ${res.status} ${JSON.stringify(body)}`);
  return body.access_token;
}

export async function buildWorld(portal: TestPortal): Promise<World> {
  const db = portal.services.db;
  const passwordHash = await (passwordHashCache ??= hashPassword(USER_PASSWORD));
  const rootPath = (await db.query<{ path: string }>('SELECT path FROM organizations WHERE id = $1', [portal.rootOrganizationId])).rows[0]!
    .path;
  const allApps = (await db.query<{ client_id: string }>('SELECT client_id FROM apps')).rows.map((r) => r.client_id);

  async function organization(parent: { id: string; path: string }, name: string, options: { canCreate?: boolean } = {}): Promise<OrgRow> {
    const segment = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
    const path = `${parent.path}/${segment}`;
    const depth = path.split('/').length - 1;
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO organizations (parent_id, name, path, depth, can_create_sub_organization, sub_organization_can_have_children)
       VALUES ($1, $2, $3, $4, $5, $5) RETURNING id`,
      [parent.id, name, path, depth, options.canCreate ?? true],
    );
    const id = rows[0]!.id;
    for (const clientId of allApps) {
      await db.query('INSERT INTO organization_apps (organization_id, client_id, available_for_sub_organizations) VALUES ($1, $2, true)', [
        id,
        clientId,
      ]);
    }
    return { id, path, name };
  }

  async function user(org: OrgRow, prefix: string, rights: object, options: { external?: boolean } = {}) {
    const email = uniqueEmail(prefix);
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO users (email, first_name, last_name, language_code, password_hash, external_idp, external_subject, terms_accepted_at, password_changed_at)
       VALUES ($1, $2, 'Tester', 'en', $3, $4, $5, now(), now()) RETURNING id`,
      [email, prefix, options.external ? null : passwordHash, options.external ? 'external' : null, options.external ? randomUUID() : null],
    );
    const userId = rows[0]!.id;
    const m = await db.query<{ id: string }>(
      'INSERT INTO memberships (organization_id, user_id, email, organization_path, rights) VALUES ($1, $2, $3, $4, $5) RETURNING id',
      [org.id, userId, email, org.path, JSON.stringify(rights)],
    );
    return { id: userId, email, membershipId: m.rows[0]!.id };
  }

  const root = { id: portal.rootOrganizationId, path: rootPath };
  const tag = randomBytes(3).toString('hex');
  const partner = await organization(root, `Partner ${tag}`);
  const dealerA = await organization(partner, `Dealer A ${tag}`);
  const north = await organization(dealerA, `North ${tag}`);
  const dealerB = await organization(partner, `Dealer B ${tag}`);

  const users = {
    member: await user(dealerA, 'member', {}),
    userManager: await user(dealerA, 'usermanager', { partner_portal: { user_user_manager: true } }),
    organizationManager: await user(dealerA, 'orgmanager', { partner_portal: { user_sub_organization_manager: true } }),
    siblingManager: await user(dealerB, 'sibling', FULL_PORTAL),
    ancestorManager: await user(partner, 'ancestor', FULL_PORTAL),
    external: await user(dealerA, 'external', {}, { external: true }),
  };
  const serviceAccountId = randomUUID();
  const serviceAccount = { id: serviceAccountId, clientId: `sa.${serviceAccountId}`, secret: randomBytes(32).toString('base64url') };
  await db.query(
    `INSERT INTO service_accounts (id, organization_id, name, client_id, secret_hash, user_manager, organization_manager)
     VALUES ($1, $2, $3, $4, $5, true, true)`,
    [serviceAccount.id, dealerA.id, `Matrix machine ${tag}`, serviceAccount.clientId, hashSecret(serviceAccount.secret)],
  );

  let counter = 0;
  return {
    portal,
    partner,
    dealerA,
    north,
    dealerB,
    users,
    serviceAccount,
    async client(actor) {
      if (actor === 'anonymous') return portal.client();
      if (actor === 'serviceAccount') return new BearerHttpClient(portal.url, await serviceAccountToken(portal, serviceAccount));
      return portal.sessionFor(users[actor].id);
    },
    fresh: {
      organization: (parent = north) => organization(parent, `Leaf ${tag} ${++counter}`, { canCreate: true }),
      async member(org = north, rights = {}) {
        const u = await user(org, `fresh${++counter}`, rights);
        return { userId: u.id, membershipId: u.membershipId, email: u.email };
      },
      async invitation(org = north, state = 'PENDING') {
        const code = randomBytes(32).toString('base64url');
        const email = uniqueEmail(`invitee${++counter}`);
        const { rows } = await db.query<{ id: string }>(
          `INSERT INTO invitations (organization_id, email, state, code_hash, language_code, expires_at, last_sent_at)
           VALUES ($1, $2, $3, $4, 'en', now() + interval '7 days', now()) RETURNING id`,
          [org.id, email, state, hashSecret(code)],
        );
        return { id: rows[0]!.id, code, email };
      },
      async mailedInvitation(org = north) {
        const email = uniqueEmail(`mailed${++counter}`);
        const admin = await portal.sessionFor(portal.adminUserId);
        const res = await admin.post<{ invitation: { invitation_id: string } }>(`/api/organizations/${org.id}/invitations`, {
          email_address: email,
          language_code: 'en',
        });
        if (res.status !== 201) throw new Error(`inviting ${email} answered ${res.status}: ${res.text}`);
        const mail = await portal.smtp.waitFor(email);
        const link = mail.links.find((l) => l.includes('/invitation'));
        const code = link && new URL(link).searchParams.get('code');
        if (!code) throw new Error(`the invitation mail to ${email} has no link with a code`);
        return { id: res.body.invitation.invitation_id, code, email };
      },
      async resetToken(userId) {
        const token = randomBytes(32).toString('base64url');
        await db.query(
          `INSERT INTO single_use_tokens (user_id, purpose, token_hash, expires_at) VALUES ($1, 'password_reset', $2, now() + interval '1 hour')`,
          [userId, hashSecret(token)],
        );
        return token;
      },
    },
  };
}
