import { stringify } from 'csv-stringify/sync';
import ExcelJS from 'exceljs';
import { isOrganizationManager, isUserManager, toRights, type Rights } from '@partner-portal/contracts';
import type { Database, Queryable } from '../../db/client.js';
import { AppError } from '../../http/problem.js';
import type { SessionStore } from '../../http/session.js';
import { audit } from '../audit/service.js';
import { toInvitation } from '../invitations/queries.js';
import { assertInSubtree, requireRole, type Actor } from '../organizations/access.js';
import { findOrganizationById } from '../organizations/queries.js';
import * as q from './queries.js';
import { rightsContextFor, validateRights } from './rights-context.js';

/**
 * Members (spec §6, §7 Members): rights, removal, search and export. A member id is the id of the
 * membership (one per user). userManagers of the member's subtree edit rights and remove members.
 */

async function loadMember(db: Queryable, actor: Actor, memberId: string, forUpdate = false) {
  const member = requireRole(actor, 'user');
  const row = await q.findMembership(db, memberId, { forUpdate });
  if (!row) throw new AppError('unknown_member');
  assertInSubtree(member, row.organization_path);
  return row;
}

export async function getRights(db: Database, actor: Actor, memberId: string) {
  const row = await loadMember(db, actor, memberId);
  const ctx = await rightsContextFor(db, { id: row.organization_id, depth: row.organization_depth }, actor.user.isDeveloper);
  return {
    member_id: row.id,
    organization_id: row.organization_id,
    email_address: row.email,
    is_provider_organization: ctx.isProviderOrganization,
    organization_client_ids: [...ctx.organizationClientIds],
    rights: toRights(row.rights),
  };
}

/**
 * Whether the actor may change another member (their rights, their second factors), with the
 * member locked for the change. Every change to a member goes through this one check.
 */
export async function memberForChange(tx: Queryable, actor: Actor, memberId: string) {
  const row = await loadMember(tx, actor, memberId, true);
  if (row.user_id === actor.user.id) throw new AppError('forbidden', { detail: 'You cannot change your own rights or factors' });
  return row;
}

/** Change a member's rights: validated by spec §6 (409 invalid_rights), stored with the implications applied. */
export async function changeRights(db: Database, actor: Actor, memberId: string, input: Rights): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await memberForChange(tx, actor, memberId);
    const before = toRights(row.rights);
    const ctx = await rightsContextFor(tx, { id: row.organization_id, depth: row.organization_depth }, actor.user.isDeveloper);
    const rights = validateRights(input, ctx, before);
    const isDeveloper = ctx.isProviderOrganization ? rights.partner_portal.developer === true : null;
    await q.updateRights(tx, row.id, row.user_id, rights, isDeveloper);
    await audit(tx, actor, {
      organizationId: row.organization_id,
      organizationPath: row.organization_path,
      action: 'member.rights.update',
      targetType: 'member',
      targetId: row.id,
      before: { email_address: row.email, rights: before },
      after: { rights },
    });
  });
}

/** Remove a member: the user, their membership and their sessions go. Irreversible. */
export async function removeMember(db: Database, sessions: SessionStore, actor: Actor, organizationId: string, memberId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await loadMember(tx, actor, memberId, true);
    if (row.organization_id !== organizationId) throw new AppError('unknown_member');
    if (row.user_id === actor.user.id) throw new AppError('cannot_remove_yourself');
    await sessions.endAllForUser(row.user_id, tx);
    await q.deleteUser(tx, row.user_id);
    await audit(tx, actor, {
      organizationId: row.organization_id,
      organizationPath: row.organization_path,
      action: 'member.remove',
      targetType: 'member',
      targetId: row.id,
      before: { email_address: row.email, user_id: row.user_id, rights: toRights(row.rights) },
    });
  });
}

async function managedOrganization(db: Database, actor: Actor, organizationId: string | undefined) {
  const member = requireRole(actor, 'any');
  const org = await findOrganizationById(db, organizationId ?? member.organizationId);
  if (!org) throw new AppError('not_found');
  assertInSubtree(member, org.path);
  return org;
}

/** Totals of a search are exact up to this many matches; above it, total is the cap and total_capped is set. */
export const SEARCH_COUNT_CAP = 1_000;

/**
 * Case-insensitive substring search of e-mail addresses over an organization and its descendants,
 * sorted by organization path then e-mail; members and pending invitations, each paged alike.
 */
export async function search(db: Database, actor: Actor, query: { organizationId: string; q: string; page: number; pageSize: number }) {
  const org = await managedOrganization(db, actor, query.organizationId);
  const text = query.q.trim();
  const offset = (query.page - 1) * query.pageSize;
  // three independent reads at once: the answer takes the slowest, not the sum
  const [counted, members, invitations] = await Promise.all([
    q.countMembersMatching(db, org.path, text, SEARCH_COUNT_CAP + 1),
    q.searchMembers(db, org.path, text, query.pageSize, offset),
    q.searchPendingInvitations(db, org.path, text, query.pageSize, offset),
  ]);
  return {
    total: Math.min(counted, SEARCH_COUNT_CAP),
    total_capped: counted > SEARCH_COUNT_CAP,
    page: query.page,
    page_size: query.pageSize,
    invitations_total: invitations[0]?.total ?? 0,
    members: members.map((m) => ({
      id: m.id,
      organization_id: m.organization_id,
      email_address: m.email,
      first_name: m.first_name,
      last_name: m.last_name,
      organization_name: m.organization_name,
      organization_path: m.organization_path,
    })),
    invitations: invitations.map((i) => toInvitation(i, true)),
  };
}

const EXPORT_COLUMNS = ['organization_path', 'organization_name', 'email_address', 'first_name', 'last_name', 'language_code', 'external_identity_provider', 'user_manager', 'organization_manager', 'created_at'] as const;

/** Spreadsheet formula injection (OWASP): a cell starting with = + - @ tab or CR is prefixed with '. */
export function neutralizeFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export interface ExportFile {
  filename: string;
  contentType: string;
  body: Buffer | string;
}

export async function exportMembers(db: Database, actor: Actor, query: { output: 'csv' | 'xlsx'; organizationId?: string | undefined }): Promise<ExportFile> {
  const org = await managedOrganization(db, actor, query.organizationId);
  const rows = (await q.listMembersForExport(db, org.path)).map((r) => {
    const rights = toRights(r.rights);
    return [
      r.organization_path,
      r.organization_name,
      r.email,
      r.first_name,
      r.last_name,
      r.language_code,
      r.external_idp ?? '',
      isUserManager(rights) ? 'yes' : 'no',
      isOrganizationManager(rights) ? 'yes' : 'no',
      new Date(r.created_at).toISOString(),
    ].map((v) => neutralizeFormula(String(v)));
  });
  const stamp = new Date().toISOString().slice(0, 10);
  const base = `members-${org.path.replace(/\//g, '_')}-${stamp}`;
  if (query.output === 'csv') {
    return { filename: `${base}.csv`, contentType: 'text/csv; charset=utf-8', body: stringify(rows, { header: true, columns: [...EXPORT_COLUMNS], bom: true }) };
  }
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Partner Portal';
  const sheet = workbook.addWorksheet('Members');
  sheet.columns = EXPORT_COLUMNS.map((c) => ({ header: c, key: c, width: c === 'email_address' || c === 'organization_path' ? 40 : 20 }));
  for (const row of rows) sheet.addRow(row);
  sheet.getRow(1).font = { bold: true };
  const buffer = await workbook.xlsx.writeBuffer();
  return { filename: `${base}.xlsx`, contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', body: Buffer.from(buffer) };
}
