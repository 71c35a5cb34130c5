import { stringify } from 'csv-stringify/sync';
import type { AuditFilter } from '@partner-portal/contracts';
import type { Database } from '../../db/client.js';
import type { DownloadFile } from '../../http/route-kit.js';
import type { Actor } from '../../http/session.js';
import { neutralizeFormula } from '../spreadsheets/cells.js';
import { organizationForActor } from '../scope/service.js';
import { listAuditEntries, listAuditEntriesForExport, type AuditRow, type AuditRowWithNames } from './queries.js';

/**
 * Reading the audit log (docs/decisions/018-the-administrators-day.md, "Audit trail"): the
 * entries of one organization's subtree, for the managers of a subtree that holds it, narrowed by
 * the optional filters. Writing entries lives in ./service.ts.
 */

export const AUDIT_PAGE_SIZE = 50;
/** The CSV export holds at most this many entries (the newest); narrow the filters for older ones. */
export const AUDIT_EXPORT_LIMIT = 50_000;

function entryOf(r: AuditRow) {
  return {
    id: String(r.id),
    occurred_at: new Date(r.occurred_at).toISOString(),
    actor_user_id: r.actor_user_id,
    actor_email: r.actor_email,
    actor_service_account_id: r.actor_service_account_id,
    organization_id: r.organization_id,
    organization_path: r.organization_path,
    action: r.action,
    target_type: r.target_type,
    target_id: r.target_id,
    before: r.before ?? null,
    after: r.after ?? null,
    request_id: r.request_id,
  };
}

/** An entry of the trail with the names its sentence needs (the web app's audit-sentences.ts). */
function entryWithNames(r: AuditRowWithNames) {
  return {
    ...entryOf(r),
    actor_name: r.actor_name,
    subject_name: r.subject_name,
    subject_email: r.subject_email,
    organization_name: r.organization_name,
    supported_by: r.supporter_email ? { email: r.supporter_email, name: r.supporter_name ?? null } : null,
  };
}

/** An entry as the export shows it (its columns, AUDIT_EXPORT_COLUMNS, with its id): what an audit stream sends (modules/audit-streams). */
export function exportedEntry(r: AuditRow & { actor_name: string | null }) {
  return { ...entryOf(r), actor_name: r.actor_name };
}
export type ExportedEntry = ReturnType<typeof exportedEntry>;

export const AUDIT_EXPORT_COLUMNS = [
  'occurred_at',
  'actor_email',
  'actor_user_id',
  'actor_service_account_id',
  'actor_name',
  'organization_path',
  'organization_id',
  'action',
  'target_type',
  'target_id',
  'before',
  'after',
  'request_id',
] as const;

/** The audit trail of a subtree, read by its managers. */
export class AuditTrail {
  constructor(private readonly deps: { db: Database }) {}

  /** One page (50) of the subtree's entries that pass the filters, newest first. */
  async page(actor: Actor, query: AuditFilter & { page: number }) {
    const { db } = this.deps;
    const { org } = await organizationForActor(db, actor, query.organizationId, { role: 'any' });
    const { total, rows } = await listAuditEntries(db, org.path, AUDIT_PAGE_SIZE, (query.page - 1) * AUDIT_PAGE_SIZE, query);
    return { total, page: query.page, page_size: AUDIT_PAGE_SIZE, entries: rows.map(entryWithNames) };
  }

  /** The same entries as the listing, all pages (up to AUDIT_EXPORT_LIMIT), as CSV. */
  async csv(actor: Actor, filter: AuditFilter): Promise<DownloadFile> {
    const { db } = this.deps;
    const { org } = await organizationForActor(db, actor, filter.organizationId, { role: 'any' });
    const rows = await listAuditEntriesForExport(db, org.path, filter, AUDIT_EXPORT_LIMIT);
    return auditCsv(org.path, rows);
  }
}

/** The entries as the export's CSV file, in the columns of AUDIT_EXPORT_COLUMNS. */
function auditCsv(path: string, rows: (AuditRow & { actor_name: string | null })[]): DownloadFile {
  const json = (v: unknown) => (v === null || v === undefined ? '' : JSON.stringify(v));
  const records = rows.map((r) => {
    const e = entryOf(r);
    return [
      e.occurred_at,
      e.actor_email ?? '',
      e.actor_user_id ?? '',
      e.actor_service_account_id ?? '',
      r.actor_name ?? '',
      e.organization_path ?? '',
      e.organization_id ?? '',
      e.action,
      e.target_type,
      e.target_id ?? '',
      json(e.before),
      json(e.after),
      e.request_id ?? '',
    ].map((v) => neutralizeFormula(v));
  });
  const stamp = new Date().toISOString().slice(0, 10);
  return {
    filename: `audit-${path.replace(/\//g, '_')}-${stamp}.csv`,
    contentType: 'text/csv; charset=utf-8',
    body: stringify(records, { header: true, columns: [...AUDIT_EXPORT_COLUMNS], bom: true }),
  };
}
