import { toRights, type InactiveDays, type Organization, type OrganizationMember } from '@partner-portal/contracts';
import type { Database } from '../../db/client.js';
import { actingAs, type Actor } from '../../http/session.js';
import { assertInSubtree, hasRole, requireRole } from '../scope/access.js';
import { AppError } from '../../http/problem.js';
import { searchPendingInvitations, toInvitation } from '../invitations/queries.js';
import { countMembersMatching, searchMembers } from '../members/queries.js';
import { isoOrNull } from '../members/service.js';
import { SharedCheck } from '../organizations/shared-check.js';
import { organizationForActor } from '../scope/service.js';
import * as q from './queries.js';

/**
 * An organization's details, read for the manage page (docs/product.md, "Screens"): the organization with its
 * sub-organizations, members and pending invitations, and the people search (members and pending
 * invitations of a subtree). It reads organizations, members and invitations; none of them
 * imports it.
 */

/** A member as the page shows it. */
function toMember(m: {
  id: string;
  organization_id: string;
  email: string;
  first_name: string;
  last_name: string;
  last_sign_in_at: Date | string | null;
}) {
  return {
    id: m.id,
    organization_id: m.organization_id,
    email_address: m.email,
    first_name: m.first_name,
    last_name: m.last_name,
    last_sign_in_at: isoOrNull(m.last_sign_in_at),
  };
}

/** What only userManagers see of a member: whether they have a second factor, and their rights (to tell beforehand whether they may manage them). */
function withManagerFacts(
  actor: Actor,
  member: OrganizationMember,
  facts: { has_second_factor: boolean; rights: unknown } | undefined,
): OrganizationMember {
  if (!facts || !hasRole(actingAs(actor), 'user')) return member;
  return { ...member, has_second_factor: facts.has_second_factor, rights: toRights(facts.rights) };
}

/** Totals of a search are exact up to this many matches; above it, total is the cap and total_capped is set. */
export const SEARCH_COUNT_CAP = 1_000;

/** The organization page's reads: one organization of the actor's subtree, and the people search. */
export class OrganizationDetails {
  /**
   * The page's one statement, shared by the requests for one organization that arrive while it is
   * in flight (shared-check.ts): each still gets a read begun after it asked, so it sees every
   * change committed before it arrived, and fifty managers opening the page at once cost about two
   * statements instead of fifty (docs/performance.md, "The organization page"). The row does not
   * depend on who asks; what each may see is decided below, per request.
   */
  private readonly pages = new SharedCheck<string, q.OrganizationPageRow | null>();

  constructor(private readonly deps: { db: Database }) {}

  /** The organization with its sub-organizations, pending invitations, members, apps and allowed e-mail domains. */
  async organization(actor: Actor, organizationId: string): Promise<Organization> {
    const { db } = this.deps;
    const member = requireRole(actor, 'any');
    const org = await this.pages.run(organizationId, () => q.findOrganizationPage(db, organizationId));
    if (!org) throw new AppError('not_found');
    assertInSubtree(member, org.path);
    const { children, invitations, expired_invitations: expired, members, apps, allowed_email_domains: domains } = org;
    return {
      id: org.id,
      parent_id: org.parent_id,
      name: org.name,
      path: org.path,
      can_create_sub_organization: org.can_create_sub_organization,
      sub_organization_can_have_children: org.sub_organization_can_have_children,
      sub_organizations: children.map((c) => ({ id: c.id, name: c.name, path: c.path, can_be_deleted: !c.has_children && !c.has_members })),
      pending_invitations: invitations.map((i) => toInvitation(i)),
      expired_invitations: expired.map((i) => toInvitation(i)),
      members: members.map((m) => withManagerFacts(actor, toMember(m), m)),
      apps: apps.map((a) => ({ client_id: a.client_id, name: a.name, available_for_sub_organizations: a.available_for_sub_organizations })),
      allowed_email_domains: domains,
    };
  }

  /**
   * Case-insensitive substring search of e-mail addresses over an organization and its descendants,
   * sorted by organization path then e-mail; members and pending invitations, each paged alike.
   */
  async searchPeople(
    actor: Actor,
    query: { organizationId: string; q: string; page: number; pageSize: number; inactiveDays?: InactiveDays | undefined },
  ) {
    const { db } = this.deps;
    const { org } = await organizationForActor(db, actor, query.organizationId, { role: 'any' });
    const text = query.q.trim();
    const filter = { text, inactiveDays: query.inactiveDays };
    const offset = (query.page - 1) * query.pageSize;
    // three independent reads at once: the answer takes the slowest, not the sum;
    // the inactive-member filter is about members only, so it lists no invitations
    const [counted, members, invitations] = await Promise.all([
      countMembersMatching(db, org.path, filter, SEARCH_COUNT_CAP + 1),
      searchMembers(db, org.path, filter, query.pageSize, offset),
      query.inactiveDays === undefined ? searchPendingInvitations(db, org.path, text, query.pageSize, offset) : Promise.resolve([]),
    ]);
    // only userManagers see them: no lookup for anyone else
    const facts = await q.findMemberFacts(db, hasRole(actingAs(actor), 'user') ? members.map((m) => m.id) : []);
    return {
      total: Math.min(counted, SEARCH_COUNT_CAP),
      total_capped: counted > SEARCH_COUNT_CAP,
      page: query.page,
      page_size: query.pageSize,
      invitations_total: invitations[0]?.total ?? 0,
      members: members.map((m) =>
        withManagerFacts(
          actor,
          { ...toMember(m), organization_name: m.organization_name, organization_path: m.organization_path },
          facts.get(m.id),
        ),
      ),
      invitations: invitations.map((i) => toInvitation(i, true)),
    };
  }
}
