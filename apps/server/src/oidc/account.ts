import { APP_SECTIONS, displayName, toRights, uuidSchema } from '@partner-portal/contracts';
import { LRUCache } from 'lru-cache';
import type { Account, AccountClaims, KoaContextWithOIDC } from 'oidc-provider';
import type { Database, Queryable } from '../db/client.js';
import type { SessionCache } from '../http/session-cache.js';
import { readAccount, supporterOfGrant, type AccountRow, type GrantSupporter } from './queries.js';

/** The claims the provider releases, by scope. */
export const SCOPE_CLAIMS = {
  openid: ['sub'],
  email: ['email', 'email_verified'],
  profile: ['name', 'given_name', 'family_name', 'locale'],
  organization: ['organization_id', 'organization_name', 'organization_path'],
  rights: ['rights'],
} as const;

/** Released with openid when a grant was made during a support session (supportClaims). */
export const SUPPORT_CLAIMS = ['act', 'supportedBy'] as const;

/**
 * The user's rights for the client asking: the rights section of the app whose client id is the
 * client's, plus global_full_permission. A client outside the catalogue gets only the latter.
 */
export function rightsForClient(stored: unknown, clientId: string | undefined): Record<string, boolean> {
  const rights = toRights(stored);
  const section = APP_SECTIONS.find((s) => s.clientId === clientId);
  return { ...(section ? rights[section.section] : {}), global_full_permission: rights.global_full_permission };
}

/**
 * The claims of a grant made during a support session (modules/support): `act` (RFC 8693 §4.1,
 * the supporter as the actor: their subject) and `supportedBy` (the supporter's address and name).
 */
export function supportClaims(supporter: GrantSupporter): { act?: { sub: string }; supportedBy: { email: string; fullName: string } } {
  return {
    ...(supporter.supporter_user_id ? { act: { sub: supporter.supporter_user_id } } : {}),
    supportedBy: { email: supporter.supporter_email, fullName: supporter.supporter_name },
  };
}

/**
 * Whether grants were made during a support session, by grant id (false: the account's own). A
 * grant is noted as a support session's as it is made, before any token of it (interaction.ts), and
 * never changes: so each grant is looked up once per instance, and a token grant's statements stay
 * those of the token (docs/performance.md).
 */
const grantSupporters = new LRUCache<string, GrantSupporter | false>({ max: 10_000 });

/** The supporter of a grant made during a support session, else undefined (cached: grantSupporters). */
export async function supporterOf(db: Queryable, grantId: string): Promise<GrantSupporter | undefined> {
  let found = grantSupporters.get(grantId);
  if (found === undefined) {
    found = (await supporterOfGrant(db, grantId)) ?? false;
    grantSupporters.set(grantId, found);
  }
  return found || undefined;
}

/** Account ids are user ids (UUIDs): anything else is no account, and the lookup stays on the primary key. */
export function isAccountId(id: string): boolean {
  return uuidSchema.safeParse(id).success;
}

/**
 * The provider's account lookup (every token grant makes one). With a cache, an account is read
 * from the database once and then kept like a session: the same announcements of changes to
 * users, memberships and organizations drop it (http/session-cache.ts).
 */
export function findAccount(db: Database, cache: SessionCache<AccountRow> | null = null) {
  return async (ctx: KoaContextWithOIDC, id: string, token?: { grantId?: string | undefined }): Promise<Account | undefined> => {
    if (!isAccountId(id)) return undefined;
    let row = cache?.get(id);
    if (!row) {
      const ticket = cache?.ticket() ?? 0;
      row = await readAccount(db, id);
      if (row) cache?.set(id, row.id, row, Number.POSITIVE_INFINITY, ticket);
    }
    if (!row) return undefined;
    const clientId = ctx.oidc?.client?.clientId;
    // a grant made during a support session (modules/support): its ID tokens and user-info name the supporter
    const supporter = token?.grantId ? await supporterOf(db, token.grantId) : undefined;
    return {
      accountId: row.id,
      claims(): AccountClaims {
        return {
          sub: row.id,
          email: row.email,
          email_verified: true,
          name: displayName(row.first_name, row.last_name, row.email),
          given_name: row.first_name,
          family_name: row.last_name,
          locale: row.language_code,
          organization_id: row.organization_id,
          organization_name: row.organization_name,
          organization_path: row.organization_path,
          rights: rightsForClient(row.rights, clientId),
          ...(supporter ? supportClaims(supporter) : {}),
        };
      },
    };
  };
}

declare module '../services.js' {
  interface Services {
    /** the provider's accounts (findAccount), cached per instance like sessions; null: read at every lookup */
    accountCache: SessionCache<AccountRow> | null;
  }
}
