import { MAX_ORGANIZATION_DEPTH, organizationPathSegment, readEmailDomain, type OrganizationNode } from '@partner-portal/contracts';
import type { Database, Queryable } from '../../db/client.js';
import { AppError } from '../../http/problem.js';
import { moveAuditPaths } from '../audit/queries.js';
import { organizationChange } from '../audit/service.js';
import { pgErrorCode } from '../../db/errors.js';
import type { Actor } from '../../http/session.js';
import { requireProviderAdministrator, requireRole } from '../scope/access.js';
import * as q from './queries.js';
import { findOrganizationById, type OrganizationRow } from '../scope/queries.js';
import { organizationForActor } from '../scope/service.js';
import type { TreeCache } from './tree-cache.js';
import { recordChange } from '../webhooks/changes.js';
import { changedList, organizationCreated, organizationDeleted, organizationUpdated } from './events.js';

/**
 * Organizations (docs/product.md, "People, organizations and invitations" and "Flows and states" and "Roles and rights"). organizationManagers create sub-organizations under any
 * organization of their subtree, and edit or delete organizations of their subtree other than
 * their own. Reading is open to userManagers and organizationManagers of the subtree.
 */

/**
 * The organization an organizationManager changes (edit, delete), its row locked for the caller's
 * transaction: one of their subtree other than their own (`key` otherwise).
 */
async function otherOrganizationForUpdate(
  tx: Queryable,
  actor: Actor,
  organizationId: string,
  key: 'cannot_edit_own_organization' | 'cannot_delete_own_organization',
): Promise<OrganizationRow> {
  const { member, org } = await organizationForActor(tx, actor, organizationId, { role: 'organization', forUpdate: true });
  if (org.id === member.organizationId) throw new AppError(key);
  return org;
}

/** Nest nodes sorted by path (children empty) into a tree rooted at the first node, in place. */
export function buildTree(nodes: OrganizationNode[]): OrganizationNode | null {
  const byId = new Map<string, OrganizationNode>();
  let root: OrganizationNode | null = null;
  for (const node of nodes) {
    byId.set(node.key, node);
    const parent = node.parent_id ? byId.get(node.parent_id) : undefined;
    if (parent) parent.children.push(node);
    else root ??= node;
  }
  return root;
}

function childPath(parentPath: string, name: string): string {
  const segment = organizationPathSegment(name);
  if (!segment) throw AppError.validation({ name: 'invalid_path_characters' });
  return `${parentPath}/${segment}`;
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}

/** Apps given to a child must be apps of the parent that are available for sub-organizations. */
async function assertAppsAvailable(tx: Queryable, parentId: string, clientIds: string[]): Promise<void> {
  if (!clientIds.length) return;
  const available = new Set(
    (await q.listOrganizationApps(tx, parentId)).filter((a) => a.available_for_sub_organizations).map((a) => a.client_id),
  );
  const wrong = clientIds.filter((c) => !available.has(c));
  if (wrong.length) throw new AppError('cannot_assign_apps_not_available', { messages: wrong, params: { client_ids: wrong.join(', ') } });
}

function mapUniquePath(err: unknown): never {
  if (pgErrorCode(err) === '23505') throw new AppError('sub_organization_path_already_exists');
  throw err;
}

/**
 * The organization tree (its rules: the comment at the top of this file): the actor's tree, read
 * from the per-instance TreeCache while unchanged, and the changes of its organizations.
 */
export class Organizations {
  constructor(private readonly deps: { db: Database; treeCache: TreeCache }) {}

  /** The actor's organization with its whole subtree, as JSON (an OrganizationNode), from the cache while unchanged. */
  async tree(actor: Actor): Promise<string> {
    const { db, treeCache } = this.deps;
    const member = requireRole(actor, 'any');
    return treeCache.get(db, member.organizationPath, async (): Promise<OrganizationNode> => {
      const root = buildTree(await q.listSubtree(db, member.organizationPath));
      if (!root) throw new AppError('not_found');
      return root;
    });
  }

  async create(
    actor: Actor,
    input: { parent_organization_id: string; name: string; client_ids: string[]; can_create_sub_organization: boolean },
  ): Promise<{ id: string }> {
    const { db } = this.deps;
    requireRole(actor, 'organization');
    try {
      return await db.transaction(async (tx) => {
        // The parent row lock serializes creations under one parent (child count, path check).
        const { org: parent } = await organizationForActor(tx, actor, input.parent_organization_id, {
          role: 'organization',
          forUpdate: true,
        });
        if (!parent.can_create_sub_organization) throw new AppError('not_allowed_to_create_sub_organizations');
        const depth = parent.depth + 1;
        if (depth > MAX_ORGANIZATION_DEPTH)
          throw new AppError('invalid_organization_path_level', { params: { max_level: MAX_ORGANIZATION_DEPTH } });
        if (parent.max_sub_organizations !== null && (await q.countChildren(tx, parent.id)) >= parent.max_sub_organizations) {
          throw new AppError('maximum_number_of_sub_organizations_reached');
        }
        if (input.can_create_sub_organization && !parent.sub_organization_can_have_children)
          throw new AppError('not_allowed_to_create_sub_organizations');
        const clientIds = unique(input.client_ids);
        await assertAppsAvailable(tx, parent.id, clientIds);
        const name = input.name.trim();
        const path = childPath(parent.path, name);
        if (await q.findOrganizationByPath(tx, path)) throw new AppError('sub_organization_path_already_exists');
        const canCreate = input.can_create_sub_organization && depth < MAX_ORGANIZATION_DEPTH;
        const id = await q.insertOrganization(tx, { parentId: parent.id, name, path, depth, canCreate, subCanHaveChildren: canCreate });
        await q.insertOrganizationApps(tx, id, clientIds, clientIds);
        await recordChange(tx, actor, {
          ...organizationChange({ id, path }, 'organization.create', undefined, {
            name,
            path,
            parent_id: parent.id,
            client_ids: clientIds,
            can_create_sub_organization: canCreate,
          }),
          events: [organizationCreated({ id, name, path, parent_id: parent.id })],
        });
        return { id };
      });
    } catch (err) {
      return mapUniquePath(err);
    }
  }

  /**
   * Rename. The path is derived from the name, so it is derived again and the whole subtree moves
   * (descendants, the members' path copies and the audit entries' path copies) in one transaction.
   */
  async rename(actor: Actor, organizationId: string, input: { name: string }): Promise<void> {
    const { db } = this.deps;
    try {
      await db.transaction(async (tx) => {
        const org = await otherOrganizationForUpdate(tx, actor, organizationId, 'cannot_edit_own_organization');
        const name = input.name.trim();
        const parentPath = org.path.slice(0, org.path.lastIndexOf('/'));
        const path = childPath(parentPath, name);
        await q.renameOrganization(tx, org.id, name);
        if (path !== org.path) {
          if (await q.findOrganizationByPath(tx, path)) throw new AppError('sub_organization_path_already_exists');
          await q.movePath(tx, org.path, path);
          await moveAuditPaths(tx, org.path, path);
        }
        const changed = [...changedList('name', [org.name], [name]), ...changedList('path', [org.path], [path])];
        await recordChange(tx, actor, {
          ...organizationChange({ id: org.id, path }, 'organization.update', { name: org.name, path: org.path }, { name, path }),
          events: [organizationUpdated({ ...org, name, path }, changed)],
        });
      });
    } catch (err) {
      mapUniquePath(err);
    }
  }

  /** Change the apps of an organization other than the actor's own; its descendants keep only the allowed ones. */
  async changeApps(
    actor: Actor,
    organizationId: string,
    input: { client_ids: string[]; available_for_sub_organizations?: string[] | undefined },
  ): Promise<void> {
    const { db } = this.deps;
    await db.transaction(async (tx) => {
      const org = await otherOrganizationForUpdate(tx, actor, organizationId, 'cannot_edit_own_organization');
      if (!org.parent_id) throw new AppError('cannot_edit_own_organization');
      const clientIds = unique(input.client_ids);
      await assertAppsAvailable(tx, org.parent_id, clientIds);
      const availableForSub = input.available_for_sub_organizations
        ? unique(input.available_for_sub_organizations).filter((c) => clientIds.includes(c))
        : clientIds;
      const before = await q.listOrganizationApps(tx, org.id);
      await q.deleteOrganizationApps(tx, org.id);
      await q.insertOrganizationApps(tx, org.id, clientIds, availableForSub);
      const removed = await q.restrictDescendantApps(tx, org.path, availableForSub);
      const appsOf = (apps: { client_id: string; available_for_sub_organizations: boolean }[]) =>
        apps.map((a) => `${a.client_id}:${a.available_for_sub_organizations}`);
      const after = clientIds.map((c) => ({ client_id: c, available_for_sub_organizations: availableForSub.includes(c) }));
      await recordChange(tx, actor, {
        ...organizationChange(
          org,
          'organization.apps.update',
          { apps: before.map((a) => ({ client_id: a.client_id, available_for_sub_organizations: a.available_for_sub_organizations })) },
          { apps: after, descendant_assignments_removed: removed },
        ),
        events: [organizationUpdated(org, changedList('apps', appsOf(before), appsOf(after)))],
      });
    });
  }

  /** Allow or forbid sub-organizations; forbidding cascades to the descendants. */
  async changeCanCreateSubOrganizations(actor: Actor, organizationId: string, value: boolean): Promise<void> {
    const { db } = this.deps;
    await db.transaction(async (tx) => {
      const org = await otherOrganizationForUpdate(tx, actor, organizationId, 'cannot_edit_own_organization');
      if (value) {
        const parent = org.parent_id ? await findOrganizationById(tx, org.parent_id) : null;
        if (!parent?.sub_organization_can_have_children) throw new AppError('not_allowed_to_create_sub_organizations');
        if (org.depth >= MAX_ORGANIZATION_DEPTH)
          throw new AppError('invalid_organization_path_level', { params: { max_level: MAX_ORGANIZATION_DEPTH } });
      }
      await q.setCanCreateSubOrganizations(tx, org.id, org.path, value);
      await recordChange(tx, actor, {
        ...organizationChange(
          org,
          'organization.can_create_sub_organizations.update',
          {
            can_create_sub_organization: org.can_create_sub_organization,
            sub_organization_can_have_children: org.sub_organization_can_have_children,
          },
          { can_create_sub_organization: value, sub_organization_can_have_children: value, cascaded_to_descendants: !value },
        ),
        events: [
          organizationUpdated(org, changedList('can_create_sub_organization', [String(org.can_create_sub_organization)], [String(value)])),
        ],
      });
    });
  }

  /** Delete an organization other than the actor's own, without members and sub-organizations. */
  async delete(actor: Actor, organizationId: string): Promise<void> {
    const { db } = this.deps;
    try {
      await db.transaction(async (tx) => {
        const org = await otherOrganizationForUpdate(tx, actor, organizationId, 'cannot_delete_own_organization');
        if ((await q.countMembers(tx, org.id)) > 0) throw new AppError('cannot_delete_organization_with_members');
        if ((await q.countChildren(tx, org.id)) > 0) throw new AppError('cannot_delete_organization_with_sub_organizations');
        const integrations = await q.integrationsOf(tx, org.id);
        await q.deleteOrganization(tx, org.id);
        await recordChange(tx, actor, {
          organizationId: org.parent_id,
          organizationPath: org.path.slice(0, org.path.lastIndexOf('/')),
          action: 'organization.delete',
          targetType: 'organization',
          targetId: org.id,
          before: { name: org.name, path: org.path, ...(Object.keys(integrations).length ? { removed_with_it: integrations } : {}) },
          events: [organizationDeleted(org)],
        });
      });
    } catch (err) {
      // a member or a child added concurrently: the foreign key refuses the delete
      if (pgErrorCode(err) === '23503') throw new AppError('cannot_delete_organization_with_sub_organizations');
      throw err;
    }
  }

  /**
   * Allowed e-mail domains: provider administrators only; each read by the contracts' rule
   * (readEmailDomain), the first it refuses named in the problem's params.
   */
  async setAllowedEmailDomains(actor: Actor, organizationId: string, typed: string[]): Promise<void> {
    const { db } = this.deps;
    requireProviderAdministrator(actor);
    const read = typed.map(readEmailDomain);
    const refused = read.find((d) => !d.valid);
    if (refused)
      throw new AppError('invalid_email_domain', {
        detail: `Invalid e-mail domain: ${refused.domain}`,
        params: { domain: refused.domain },
      });
    const domains = read.map((d) => d.domain);
    await db.transaction(async (tx) => {
      const { org } = await organizationForActor(tx, actor, organizationId, { role: 'organization', forUpdate: true });
      const before = await q.listEmailDomains(tx, org.id);
      const after = unique(domains).sort();
      await q.replaceEmailDomains(tx, org.id, after);
      await recordChange(tx, actor, {
        ...organizationChange(
          org,
          'organization.allowed_email_domains.update',
          { allowed_email_domains: before },
          { allowed_email_domains: after },
        ),
        events: [organizationUpdated(org, changedList('allowed_email_domains', before, after))],
      });
    });
  }
}
