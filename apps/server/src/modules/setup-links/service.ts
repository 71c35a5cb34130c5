import {
  ORGANIZATION_MANAGER_CAPABILITIES,
  type SetupCapability,
  type SetupLink,
  type SetupLinkCreated,
  type SetupLinkState,
} from '@partner-portal/contracts';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import { senderNameOf } from '../../http/actor.js';
import { AppError } from '../../http/problem.js';
import { hashSecret, newSecret, personOf, type Actor } from '../../http/session.js';
import type { AuditChange } from '../audit/service.js';
import { recordChange } from '../webhooks/changes.js';
import { assertMayConnect } from '../connection-policy/rule.js';
import type { Mailer } from '../mail/mailer.js';
import { requireRole } from '../scope/access.js';
import { organizationForActor } from '../scope/service.js';
import { setupLinkEmail } from './messages.js';
import * as q from './queries.js';

/**
 * Setup links (the operating contract, "Setup links for a dealer's IT person"; docs/integrations.md,
 * "Setup links"): a manager hands the technical setup of an organization to its IT person, who
 * needs no portal account. The maker must hold each capability themself — domains, sso and
 * audit_streams as an organizationManager of the organization, scim as a userManager — and be a
 * person (403 service_account_not_allowed); the connection policy applies (409
 * connections_not_allowed). The link's token (256 random bits) is in its url and its e-mail only,
 * kept as a hash; the e-mail leaves through the outbox in the maker's language. Revoking ends the
 * link and its session at once. Opening it: opening.ts; acting through it: lookups.ts.
 */

function stateOf(row: q.LinkRow, now = Date.now()): SetupLinkState {
  if (row.revoked_at) return 'revoked';
  if (new Date(row.expires_at).getTime() <= now) return 'expired';
  return row.opened_at ? 'opened' : 'pending';
}

function toWire(row: q.LinkRow): SetupLink {
  return {
    id: row.id,
    email: row.email,
    capabilities: row.capabilities as SetupCapability[],
    state: stateOf(row),
    expires_at: new Date(row.expires_at).toISOString(),
    created_by: row.created_by,
    created_by_email: row.created_by_email,
  };
}

function change(org: { id: string; path: string }, action: string, linkId: string, before?: unknown, after?: unknown): AuditChange {
  return { organizationId: org.id, organizationPath: org.path, action, targetType: 'setup_link', targetId: linkId, before, after };
}

export class SetupLinks {
  constructor(private readonly deps: { db: Database; config: Config; mailer: Mailer }) {}

  /** POST: make a link for `email` with the capabilities the maker holds; e-mailed to it in the maker's language. */
  async create(
    actor: Actor,
    organizationId: string,
    input: { email: string; capabilities: SetupCapability[]; expires_in_days: number },
  ): Promise<SetupLinkCreated> {
    const { db, config, mailer } = this.deps;
    const person = personOf(actor);
    const capabilities = [...new Set(input.capabilities)];
    const needsOrganizationManager = capabilities.some((c) => ORGANIZATION_MANAGER_CAPABILITIES.includes(c));
    const needsUserManager = capabilities.includes('scim');
    // every capability as the maker holds it: the link never grants more
    if (needsOrganizationManager) requireRole(actor, 'organization');
    if (needsUserManager) requireRole(actor, 'user');
    const token = newSecret();
    return db.transaction(async (tx) => {
      const { org } = await organizationForActor(tx, actor, organizationId, {
        role: needsOrganizationManager ? 'organization' : 'user',
      });
      await assertMayConnect(tx, org);
      const email = input.email.trim().toLowerCase();
      const created = await q.insertLink(tx, {
        organizationId: org.id,
        email,
        languageCode: person.languageCode,
        capabilities,
        tokenHash: hashSecret(token),
        createdBy: person.id,
        expiresInDays: input.expires_in_days,
      });
      await recordChange(
        tx,
        actor,
        change(org, 'setup_link.create', created.id, undefined, {
          email,
          capabilities,
          expires_at: new Date(created.expires_at).toISOString(),
        }),
      );
      const url = `${config.publicUrl}/setup/${token}`;
      const message = setupLinkEmail({
        language: person.languageCode,
        makerName: senderNameOf(actor),
        organizationName: org.name,
        capabilities,
        expiresAt: new Date(created.expires_at),
        link: url,
      });
      await mailer.enqueue({ ...message, to: email, kind: 'setup-link' }, { tx });
      return { id: created.id, url, expires_at: new Date(created.expires_at).toISOString() };
    });
  }

  /** GET: the organization's links with their state (any manager of it). */
  async list(actor: Actor, organizationId: string): Promise<SetupLink[]> {
    const { db } = this.deps;
    personOf(actor);
    const { org } = await organizationForActor(db, actor, organizationId, { role: 'any' });
    return (await q.listLinks(db, org.id)).map((row) => toWire(row));
  }

  /** DELETE: revoke a link of the organization; its session ends at once (any manager of it). */
  async revoke(actor: Actor, organizationId: string, linkId: string): Promise<void> {
    const { db } = this.deps;
    personOf(actor);
    await db.transaction(async (tx) => {
      const { org } = await organizationForActor(tx, actor, organizationId, { role: 'any' });
      const row = await q.findLinkForUpdate(tx, org.id, linkId);
      if (!row) throw new AppError('unknown_setup_link');
      if (row.revoked_at) return;
      await q.revokeLink(tx, row.id);
      await recordChange(
        tx,
        actor,
        change(org, 'setup_link.revoke', row.id, { email: row.email, state: stateOf(row) }, { state: 'revoked' }),
      );
    });
  }
}
