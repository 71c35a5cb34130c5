import { MAX_SCIM_TOKENS_PER_ORGANIZATION, toRights, type ScimToken, type ScimTokenCreated } from '@partner-portal/contracts';
import type { Database, Queryable } from '../../db/client.js';
import type { DirectoryLookups } from '../../http/credentials.js';
import { AppError } from '../../http/problem.js';
import { hashSecret, newSecret, responsiblePersonOf, type Actor } from '../../http/session.js';
import { recordChange } from '../webhooks/changes.js';
import { assertMayConnect } from '../connection-policy/rule.js';
import type { SetupSteps } from '../setup-links/steps.js';
import { delegatorOf } from '../../http/actor.js';
import { organizationForActor } from '../scope/service.js';
import * as q from './queries.js';

/**
 * Directories' SCIM tokens (docs/integrations.md, "SCIM 2.0"): a userManager of an organization
 * makes one for its directory; it acts on the organization's subtree with the rights its maker held
 * then (it changes no member who holds more: contracts delegation.ts), and stops at once when
 * deleted. The token is shown once and kept as a SHA-256 hash, like a session's.
 */

/** Tokens carry this prefix, so that secret scanners and people recognise one. */
const TOKEN_PREFIX = 'ppscim_';

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

function toScimToken(row: q.TokenRow): ScimToken {
  return {
    id: row.id,
    name: row.name,
    organization_id: row.organization_id,
    created_at: iso(row.created_at)!,
    last_used_at: iso(row.last_used_at),
    created_by_email: row.created_by_email,
  };
}

export class ScimTokens {
  constructor(private readonly deps: { db: Database; setupSteps: SetupSteps }) {}

  /** Make a token for the organization (a userManager of it): shown once in the answer. */
  async create(actor: Actor, organizationId: string, input: { name: string }): Promise<ScimTokenCreated> {
    const { db } = this.deps;
    const token = `${TOKEN_PREFIX}${newSecret()}`;
    const createdBy = responsiblePersonOf(actor);
    const delegator = delegatorOf(actor);
    const id = await db.transaction(async (tx) => {
      const { org } = await organizationForActor(tx, actor, organizationId, { role: 'user', forUpdate: true });
      await assertMayConnect(tx, org);
      if ((await q.countTokens(tx, org.id)) >= MAX_SCIM_TOKENS_PER_ORGANIZATION)
        throw new AppError('too_many_scim_tokens', { params: { max: MAX_SCIM_TOKENS_PER_ORGANIZATION } });
      const tokenId = await q.insertToken(tx, {
        organizationId: org.id,
        name: input.name,
        tokenHash: hashSecret(token),
        rights: delegator.rights,
        isDeveloper: delegator.isDeveloper,
        createdBy,
      });
      await recordChange(tx, actor, {
        organizationId: org.id,
        organizationPath: org.path,
        action: 'scim_token.create',
        targetType: 'scim_token',
        targetId: tokenId,
        after: { name: input.name },
      });
      await this.deps.setupSteps.completed(tx, actor, 'scim_token_created', input.name);
      return tokenId;
    });
    return { id, token };
  }

  /** The organization's tokens (its userManagers and those above), never their secrets. */
  async list(actor: Actor, organizationId: string): Promise<ScimToken[]> {
    const { db } = this.deps;
    responsiblePersonOf(actor);
    const { org } = await organizationForActor(db, actor, organizationId, { role: 'user' });
    return (await q.listTokens(db, org.id)).map(toScimToken);
  }

  /** Delete a token of the organization: the next request with it is refused (401). */
  async remove(actor: Actor, organizationId: string, tokenId: string): Promise<void> {
    const { db } = this.deps;
    responsiblePersonOf(actor);
    await db.transaction(async (tx) => {
      const { org } = await organizationForActor(tx, actor, organizationId, { role: 'user' });
      const token = await q.findToken(tx, org.id, tokenId);
      if (!token) throw new AppError('unknown_scim_token');
      await q.deleteToken(tx, token.id);
      await recordChange(tx, actor, {
        organizationId: org.id,
        organizationPath: org.path,
        action: 'scim_token.delete',
        targetType: 'scim_token',
        targetId: token.id,
        before: { name: token.name },
      });
    });
  }
}

/**
 * How a request's SCIM token is found (http/credentials.ts, where it becomes the request's actor):
 * the directory acts on its token's organization and subtree as a userManager, with the rights its
 * token's maker held when it was made; null for no such token.
 */
export function directoryLookups(db: Queryable): DirectoryLookups {
  return {
    async directory(bearer) {
      if (!bearer.startsWith(TOKEN_PREFIX) || bearer.length > 200) return null;
      const row = await q.findTokenByHash(db, hashSecret(bearer));
      if (!row) return null;
      return {
        id: row.id,
        name: row.name,
        organizationId: row.organization_id,
        organizationPath: row.organization_path,
        organizationName: row.organization_name,
        isProviderOrganization: row.organization_depth === 0,
        rights: toRights(row.rights),
        userManager: true,
        organizationManager: false,
        isDeveloper: row.is_developer,
      };
    },
  };
}
