import {
  canManageMember,
  isOrganizationManager,
  rightsNotHeld,
  toRights,
  type SsoConnection,
  type SsoConnectionMembers,
} from '@partner-portal/contracts';
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import type { Database, Queryable } from '../../db/client.js';
import { AppError } from '../../http/problem.js';
import { senderNameOf } from '../../http/actor.js';
import { actingAs, responsiblePersonOf, type Actor } from '../../http/session.js';
import { EXTERNAL_IDP_ID, type UpstreamSettings } from '../../oidc/upstream.js';
import { seal } from '../../sealed.js';
import { RefusedChange, withRefusalAudit, type AuditChange } from '../audit/service.js';
import { recordChange } from '../webhooks/changes.js';
import { assertMayConnect } from '../connection-policy/rule.js';
import type { SetupSteps } from '../setup-links/steps.js';
import { verifiedDomainsAtOrAbove } from '../domains/queries.js';
import type { Mailer } from '../mail/mailer.js';
import { ssoConnectionEmail } from '../mail/messages.js';
import { sendSecurityNotice, type SecurityNotice } from '../mail/security-notices.js';
import { delegatorOf } from '../members/rights-context.js';
import { isPathInSubtree } from '../scope/access.js';
import type { OrganizationRow } from '../scope/queries.js';
import { organizationForActor } from '../scope/service.js';
import { CLIENT_SECRET_PURPOSE, type SsoProviders } from './providers.js';
import * as q from './queries.js';
import type { SsoRouting } from './routing.js';

/**
 * Single sign-on connections (the operating contract, "Single sign-on per organization";
 * docs/dealer-identity.md): managers of an organization connect its OpenID Connect provider for
 * its whole subtree. Only people do (403 service_account_not_allowed). The rules, checked in this
 * order after the actor's right over the organization: every domain verified at or above the
 * organization (409 domain_not_verified), the issuer discovered (409 sso_discovery_failed), no
 * domain listed by another connection of the same organization or by EXTERNAL_IDP_EMAIL_DOMAINS
 * (409 sso_domain_in_use, under the table lock; organizations below may have their own: routing.ts).
 *
 * A connection decides who can sign in as each member it serves, so a change that decides how
 * members sign in acts on each of them: creating an active connection, switching one on or off,
 * changing its provider (issuer, client_id, client_secret) or its domains, deleting it. Such a
 * change is refused with 403 cannot_manage_member_with_more_rights (audited) unless the actor may
 * manage every member the connection reaches before and after it (queries.ts membersReached) — the
 * rule and function that guard removing a member (contracts delegation.ts canManageMember). Its
 * name and just_in_time decide nothing for existing members (just in time makes members without
 * rights) and need no more than the right over the organization.
 *
 * In the change's transaction (through the mail outbox), every member whose way of signing in changed is told in their language (now
 * signs in through the connection, its provider changed, no longer signs in through it), and the
 * organization's organizationManagers are told of the change. A new provider's subjects mean
 * nothing: the accounts' old subjects are forgotten (queries.ts forgetSubjects). The client secret
 * is sealed at rest and never answered. Deleting a connection unlinks its accounts
 * (queries.ts unlinkAccounts).
 */

/** How many of the members a connection serves its members call lists. */
const MEMBERS_SHOWN = 200;

export interface ConnectionInput {
  name: string;
  issuer: string;
  client_id: string;
  client_secret?: string | null | undefined;
  domains: string[];
  just_in_time: boolean;
  active: boolean;
}

export type ConnectionPatch = Partial<ConnectionInput>;

/** What the audit log keeps of a connection (never its secret). */
function described(
  c: { name: string; issuer: string; client_id: string; domains: readonly string[]; just_in_time: boolean; active: boolean },
  hasSecret: boolean,
) {
  return {
    name: c.name,
    issuer: c.issuer,
    client_id: c.client_id,
    domains: [...c.domains],
    just_in_time: c.just_in_time,
    active: c.active,
    has_client_secret: hasSecret,
  };
}

/** What decides who a connection signs in: whether it is active, its provider, its domains. */
interface Serving {
  active: boolean;
  provider: string;
  domains: readonly string[];
}

/** How a change of a connection changed a member's way of signing in, if it did. */
function noticeFor(userId: string, before: Set<string>, after: Set<string>, providerChanged: boolean): SecurityNotice | null {
  if (!before.has(userId)) return after.has(userId) ? 'sso-connected' : null;
  if (!after.has(userId)) return 'sso-disconnected';
  return providerChanged ? 'sso-provider-changed' : null;
}

function change(org: OrganizationRow, action: string, targetId: string, before?: unknown, after?: unknown): AuditChange {
  return { organizationId: org.id, organizationPath: org.path, action, targetType: 'sso_connection', targetId, before, after };
}

function toWire(row: q.ConnectionRow): SsoConnection {
  return {
    id: row.id,
    name: row.name,
    issuer: row.issuer,
    client_id: row.client_id,
    domains: row.domains,
    just_in_time: row.just_in_time,
    active: row.active,
    organization_id: row.organization_id,
    has_client_secret: row.client_secret_sealed !== null,
    configured: false,
  };
}

export class SsoConnections {
  constructor(
    private readonly deps: {
      db: Database;
      config: Config;
      log: Logger;
      mailer: Mailer;
      secrets: { keyEncryption: string };
      providers: SsoProviders;
      routing: SsoRouting;
      /** tells a setup link's maker of a connection made or switched on through it */
      setupSteps: SetupSteps;
    },
  ) {}

  /**
   * GET: the connections that apply to an organization (its own and its ancestors'; the
   * EXTERNAL_IDP_* one as the root's, for the provider's own people only); any manager of it.
   */
  async list(actor: Actor, organizationId: string): Promise<SsoConnection[]> {
    const { db, config } = this.deps;
    const { org } = await organizationForActor(db, actor, organizationId, { role: 'any' });
    const rows = (await q.connectionsAtOrAbove(db, org.path)).map(toWire);
    // the provider's own connection (EXTERNAL_IDP_*) signs in the provider's staff: its people see it, dealers do not
    if (!config.externalIdp || !actingAs(actor).isProviderOrganization) return rows;
    const root = await q.rootOrganization(db);
    const external: SsoConnection = {
      id: EXTERNAL_IDP_ID,
      name: config.externalIdp.name,
      issuer: config.externalIdp.issuer,
      client_id: config.externalIdp.clientId,
      domains: config.externalIdp.emailDomains,
      just_in_time: false,
      active: true,
      organization_id: root.id,
      has_client_secret: Boolean(config.externalIdp.clientSecret),
      configured: true,
    };
    return [external, ...rows];
  }

  /**
   * GET …/members: who signs in through the connection once it is active — the members it reaches
   * whom routing would send to it (routing.ts: not those a nearer connection below serves), the
   * first 200 by address, and how many in all. For its managers, before they switch it on, off or
   * delete it.
   */
  async members(actor: Actor, organizationId: string, connectionId: string): Promise<SsoConnectionMembers> {
    const { db, routing } = this.deps;
    responsiblePersonOf(actor);
    const { org, row } = await this.ownConnection(db, actor, organizationId, connectionId);
    const reached = await q.membersReached(db, org.path, row.domains, row.id);
    const served = await routing.servedBy(row.id, reached);
    return {
      total: served.length,
      members: served.slice(0, MEMBERS_SHOWN).map((m) => ({
        user_id: m.user_id,
        email: m.email,
        first_name: m.first_name,
        last_name: m.last_name,
        organization_id: m.organization_id,
        organization_name: m.organization_name,
      })),
    };
  }

  /** POST: connect a provider to an organization (inactive with `active: false`); its managers hear of it by e-mail. */
  async create(actor: Actor, organizationId: string, input: ConnectionInput): Promise<{ id: string }> {
    const { db, secrets } = this.deps;
    responsiblePersonOf(actor);
    const { org } = await organizationForActor(db, actor, organizationId, { role: 'organization' });
    await assertMayConnect(db, org);
    const domains = [...new Set(input.domains)];
    await this.assertVerified(db, org, domains);
    const clientSecret = input.client_secret || null;
    await this.discover({ id: 'new', name: input.name, issuer: input.issuer, clientId: input.client_id, clientSecret });
    const sealed = clientSecret ? await seal(secrets.keyEncryption, CLIENT_SECRET_PURPOSE, clientSecret) : null;
    const connection = { ...input, domains };
    const id = await withRefusalAudit(db, actor, () =>
      db.transaction(async (tx) => {
        await q.lockConnections(tx);
        await this.assertDomainsFree(tx, org.id, domains, null);
        const created = await q.insertConnection(tx, {
          organizationId: org.id,
          name: input.name,
          issuer: input.issuer,
          clientId: input.client_id,
          clientSecretSealed: sealed,
          domains,
          justInTime: input.just_in_time,
          active: input.active,
        });
        const entry = change(org, 'sso_connection.create', created, undefined, described(connection, sealed !== null));
        const after = { active: input.active, provider: `${input.issuer} ${input.client_id}`, domains };
        const members = await this.assertMayManageReached(tx, actor, org, created, null, after, entry);
        await recordChange(tx, actor, entry);
        await this.deps.setupSteps.completed(tx, actor, input.active ? 'connection_switched_on' : 'connection_created', input.name);
        if (input.active) {
          await this.tellMembers(tx, members, new Set(), new Set(members.after.map((m) => m.user_id)), false, input.name);
          await this.tellManagers(tx, actor, org, 'added', { name: input.name, issuer: input.issuer, domains });
        }
        return created;
      }),
    );
    this.deps.routing.connectionsChanged();
    return { id };
  }

  /** PATCH: any field, with the checks of a new connection for what changes; discovered again when the issuer or the client changes. */
  async update(actor: Actor, organizationId: string, connectionId: string, patch: ConnectionPatch): Promise<void> {
    const { db, secrets } = this.deps;
    responsiblePersonOf(actor);
    const { org, row } = await this.ownConnection(db, actor, organizationId, connectionId);
    const patchedDomains = patch.domains ? [...new Set(patch.domains)] : null;
    if (patchedDomains) await this.assertVerified(db, org, patchedDomains);
    /** the patch over a connection's row: its fields, the rest as the row has them */
    const merged = (base: typeof row) => ({
      name: patch.name ?? base.name,
      issuer: patch.issuer ?? base.issuer,
      client_id: patch.client_id ?? base.client_id,
      domains: patchedDomains ?? base.domains,
      just_in_time: patch.just_in_time ?? base.just_in_time,
      active: patch.active ?? base.active,
    });
    // a client_secret of null or '' makes the portal a public client; absent keeps the secret
    const secretChanged = patch.client_secret !== undefined;
    const clientSecret = secretChanged ? patch.client_secret || null : undefined;
    const newSealed = clientSecret ? await seal(secrets.keyEncryption, CLIENT_SECRET_PURPOSE, clientSecret) : null;
    const discovered = merged(row);
    const providerChanged = discovered.issuer !== row.issuer || discovered.client_id !== row.client_id;
    if (secretChanged || providerChanged) {
      await this.discover({
        id: row.id,
        name: discovered.name,
        issuer: discovered.issuer,
        clientId: discovered.client_id,
        clientSecret: clientSecret ?? null,
      });
    }
    await withRefusalAudit(db, actor, () =>
      db.transaction(async (tx) => {
        await q.lockConnections(tx);
        const current = await q.findConnection(tx, row.id);
        if (!current) throw new AppError('not_found');
        // the patch is merged into the row as it is now, under the lock: a change made since it was
        // read above (another PATCH of other fields) is kept, not overwritten with the older values
        const next = merged(current);
        const { domains } = next;
        // the provider discovered above must be the one the change leaves (rare: another PATCH
        // changed the provider meanwhile): refused, to be sent again
        if (next.issuer !== discovered.issuer || next.client_id !== discovered.client_id) {
          throw new AppError('invalid_operation', { detail: 'The connection’s provider was changed meanwhile. Try again.' });
        }
        const sealed = secretChanged ? newSealed : current.client_secret_sealed;
        if (patchedDomains) await this.assertDomainsFree(tx, org.id, domains, row.id);
        const entry = change(org, 'sso_connection.update', row.id, described(current, current.client_secret_sealed !== null), {
          ...described(next, sealed !== null),
          ...(secretChanged ? { client_secret_changed: true } : {}),
        });
        const was: Serving = { active: current.active, provider: `${current.issuer} ${current.client_id}`, domains: current.domains };
        const will: Serving = { active: next.active, provider: `${next.issuer} ${next.client_id}`, domains };
        const decides = secretChanged || was.provider !== will.provider || was.active !== will.active || !sameDomains(was, will);
        const members = decides ? await this.assertMayManageReached(tx, actor, org, row.id, was, will, entry) : null;
        await q.updateConnection(tx, row.id, {
          name: next.name,
          issuer: next.issuer,
          clientId: next.client_id,
          clientSecretSealed: sealed,
          domains,
          justInTime: next.just_in_time,
          active: next.active,
        });
        if (was.provider !== will.provider) await q.forgetSubjects(tx, row.id);
        await recordChange(tx, actor, entry);
        if (!current.active && next.active) await this.deps.setupSteps.completed(tx, actor, 'connection_switched_on', next.name);
        if (!members) return;
        const servedBefore = new Set(current.active ? members.before.map((m) => m.user_id) : []);
        const servedAfter = new Set(next.active ? members.after.map((m) => m.user_id) : []);
        await this.tellMembers(tx, members, servedBefore, servedAfter, providerChanged || secretChanged, next.name);
        if (current.active || next.active) {
          const kind = !next.active ? 'removed' : !current.active ? 'added' : 'changed';
          await this.tellManagers(tx, actor, org, kind, { name: next.name, issuer: next.issuer, domains });
        }
      }),
    );
    this.deps.routing.connectionsChanged();
  }

  /** DELETE: the connection goes; its accounts are unlinked and signed out (their password comes through "forgot password"). */
  async remove(actor: Actor, organizationId: string, connectionId: string): Promise<void> {
    const { db } = this.deps;
    responsiblePersonOf(actor);
    const { org, row } = await this.ownConnection(db, actor, organizationId, connectionId);
    await withRefusalAudit(db, actor, () =>
      db.transaction(async (tx) => {
        await q.lockConnections(tx);
        const current = await q.findConnection(tx, row.id);
        if (!current) throw new AppError('not_found');
        const entry = change(org, 'sso_connection.delete', row.id, described(current, current.client_secret_sealed !== null));
        const was: Serving = { active: current.active, provider: `${current.issuer} ${current.client_id}`, domains: current.domains };
        const members = await this.assertMayManageReached(tx, actor, org, row.id, was, null, entry);
        const unlinked = await q.unlinkAccounts(tx, row.id);
        await q.deleteConnection(tx, row.id);
        await recordChange(tx, actor, { ...entry, after: { unlinked_accounts: unlinked.length } });
        if (!current.active) return;
        await this.tellMembers(tx, members, new Set(members.before.map((m) => m.user_id)), new Set(), false, current.name);
        await this.tellManagers(tx, actor, org, 'removed', { name: current.name, issuer: current.issuer, domains: current.domains });
      }),
    );
    this.deps.routing.connectionsChanged();
  }

  /**
   * The members the connection reaches before (`was`) and after (`will`) a change (null: it does
   * not exist then; inactive: it reaches nobody), and 403 cannot_manage_member_with_more_rights
   * (audited as `entry`'s refusal) unless the actor may manage each of them.
   */
  private async assertMayManageReached(
    tx: Queryable,
    actor: Actor,
    org: OrganizationRow,
    connectionId: string,
    was: Serving | null,
    will: Serving | null,
    entry: AuditChange,
  ): Promise<Reached> {
    const reach = (s: Serving | null) => (s?.active ? q.membersReached(tx, org.path, s.domains, connectionId) : Promise.resolve([]));
    const before = await reach(was);
    const after = await reach(will);
    const delegator = delegatorOf(actor);
    for (const member of [...before, ...after]) {
      const rights = toRights(member.rights);
      if (canManageMember(delegator, rights)) continue;
      const missing = rightsNotHeld(delegator, rights);
      throw new RefusedChange('cannot_manage_member_with_more_rights', entry, {
        messages: missing,
        params: { rights: missing.join(', ') },
      });
    }
    return { before, after };
  }

  /** Tell each member whose way of signing in changed, in their language (security-notices.ts), through the outbox in the change's transaction. */
  private async tellMembers(
    tx: Queryable,
    reached: Reached,
    servedBefore: Set<string>,
    servedAfter: Set<string>,
    providerChanged: boolean,
    connectionName: string,
  ): Promise<void> {
    const ids = new Set([...reached.before, ...reached.after].map((m) => m.user_id));
    for (const userId of ids) {
      const notice = noticeFor(userId, servedBefore, servedAfter, providerChanged);
      if (notice) await sendSecurityNotice(this.deps, userId, notice, connectionName, tx);
    }
  }

  /**
   * The connection a change addresses through an organization: the organization's own. An
   * ancestor's is 409 sso_connection_inherited, the EXTERNAL_IDP_* one 409
   * sso_connection_configured, any other (unknown, or of another part of the tree) 404.
   */
  private async ownConnection(
    db: Queryable,
    actor: Actor,
    organizationId: string,
    connectionId: string,
  ): Promise<{ org: OrganizationRow; row: q.ConnectionRow }> {
    const { org } = await organizationForActor(db, actor, organizationId, { role: 'organization' });
    if (connectionId === EXTERNAL_IDP_ID && this.deps.config.externalIdp) throw new AppError('sso_connection_configured');
    const row = await q.findConnection(db, connectionId);
    if (!row) throw new AppError('not_found');
    if (row.organization_id !== org.id) {
      if (isPathInSubtree(row.organization_path, org.path)) throw new AppError('sso_connection_inherited');
      throw new AppError('not_found');
    }
    return { org, row };
  }

  /**
   * Every domain verified at or above the organization (domain_not_verified). Whether another
   * connection has one (sso_domain_in_use, the portal's own rule) is checked after the discovery,
   * in the transaction that writes: the operating contract's errors come first.
   */
  private async assertVerified(db: Queryable, org: OrganizationRow, domains: string[]): Promise<void> {
    const verified = new Set((await verifiedDomainsAtOrAbove(db, org.path)).map((d) => d.domain));
    const unverified = domains.find((d) => !verified.has(d));
    if (unverified) throw new AppError('domain_not_verified', { params: { domain: unverified } });
  }

  /** One domain, one connection an organization: none listed by another connection of it or by EXTERNAL_IDP_EMAIL_DOMAINS. */
  private async assertDomainsFree(db: Queryable, organizationId: string, domains: string[], exceptId: string | null): Promise<void> {
    const configured = this.deps.config.externalIdp?.emailDomains ?? [];
    const taken = domains.find((d) => configured.includes(d)) ?? (await q.domainsInUse(db, organizationId, domains, exceptId))[0];
    if (taken) throw new AppError('sso_domain_in_use', { params: { domain: taken } });
  }

  /**
   * The issuer answers as an OpenID provider (discovery through the outbound guard, within
   * UPSTREAM_TIMEOUT_SECONDS), else 409 sso_discovery_failed. In production the issuer is https,
   * unless private networks are allowed (OUTBOUND_ALLOW_PRIVATE_NETWORKS, for a provider inside them).
   */
  private async discover(settings: UpstreamSettings): Promise<void> {
    const { config, log, providers } = this.deps;
    if (config.isProduction && !config.OUTBOUND_ALLOW_PRIVATE_NETWORKS && new URL(settings.issuer).protocol !== 'https:') {
      throw AppError.validation({ issuer: 'invalid_issuer' });
    }
    try {
      await providers.forSettings(settings).discover();
    } catch (err) {
      log.info({ err, issuer: settings.issuer }, 'single sign-on: discovery failed');
      throw new AppError('sso_discovery_failed', { params: { issuer: settings.issuer } });
    }
  }

  /** E-mail the organization's organizationManagers, each in their language, that a connection was added, changed or removed (the outbox, in the change's transaction). */
  private async tellManagers(
    tx: Queryable,
    actor: Actor,
    org: OrganizationRow,
    kind: 'added' | 'changed' | 'removed',
    connection: { name: string; issuer: string; domains: readonly string[] },
  ) {
    const { config, mailer } = this.deps;
    const managers = (await q.membersOf(tx, org.id)).filter((m) => isOrganizationManager(toRights(m.rights)));
    const actorName = senderNameOf(actor);
    const link = `${config.publicUrl}/manage-organization/${encodeURIComponent(org.id)}#identity`;
    for (const manager of managers) {
      const message = ssoConnectionEmail({
        change: kind,
        language: manager.language_code,
        link,
        firstName: manager.first_name,
        actorName,
        organizationName: org.name,
        connectionName: connection.name,
        issuer: connection.issuer,
        domains: connection.domains,
      });
      await mailer.enqueue({ to: manager.email, kind: `sso-connection-${kind}`, ...message }, { tx });
    }
  }
}

/** The members a connection reaches before and after a change (assertMayManageReached). */
interface Reached {
  before: q.ServedMember[];
  after: q.ServedMember[];
}

function sameDomains(a: Serving, b: Serving): boolean {
  return a.domains.length === b.domains.length && a.domains.every((d) => b.domains.includes(d));
}
