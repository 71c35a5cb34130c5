import { stringify } from 'csv-stringify/sync';
import { isOrganizationManager, isUserManager, toRights } from '@partner-portal/contracts';
import type { Database } from '../../db/client.js';
import type { Actor } from '../../http/session.js';
import { organizationForActor } from '../scope/service.js';
import * as q from './queries.js';
import type { DownloadFile } from '../../http/route-kit.js';
import { neutralizeFormula } from '../spreadsheets/cells.js';
import { isoOrNull } from './service.js';

/** The member export of a subtree (CSV or a spreadsheet), for its managers. */

const EXPORT_COLUMNS = [
  'organization_path',
  'organization_name',
  'email_address',
  'first_name',
  'last_name',
  'language_code',
  'external_identity_provider',
  'user_manager',
  'organization_manager',
  'created_at',
  'last_sign_in_at',
] as const;

export class MemberExport {
  constructor(private readonly deps: { db: Database }) {}

  /** The members of the actor's subtree (or of the organization given within it), as CSV or XLSX. */
  async file(actor: Actor, query: { output: 'csv' | 'xlsx'; organizationId?: string | undefined }): Promise<DownloadFile> {
    const { db } = this.deps;
    const { org } = await organizationForActor(db, actor, query.organizationId, { role: 'any' });
    const rows = await q.listMembersForExport(db, org.path);
    return memberFile(org.path, rows, query.output);
  }
}

/** The export as a file: a row a member, in the columns of EXPORT_COLUMNS. */
async function memberFile(path: string, members: q.ExportRow[], output: 'csv' | 'xlsx'): Promise<DownloadFile> {
  const rows = members.map((r) => {
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
      isoOrNull(r.last_sign_in_at) ?? '',
    ].map((v) => neutralizeFormula(String(v)));
  });
  const stamp = new Date().toISOString().slice(0, 10);
  const base = `members-${path.replace(/\//g, '_')}-${stamp}`;
  if (output === 'csv') {
    return {
      filename: `${base}.csv`,
      contentType: 'text/csv; charset=utf-8',
      body: stringify(rows, { header: true, columns: [...EXPORT_COLUMNS], bom: true }),
    };
  }
  // loaded at the first spreadsheet asked for: ~30 MB the portal does not hold until then (docs/performance.md, "Memory")
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Partner Portal';
  const sheet = workbook.addWorksheet('Members');
  sheet.columns = EXPORT_COLUMNS.map((c) => ({ header: c, key: c, width: c === 'email_address' || c === 'organization_path' ? 40 : 20 }));
  for (const row of rows) sheet.addRow(row);
  sheet.getRow(1).font = { bold: true };
  const buffer = await workbook.xlsx.writeBuffer();
  return {
    filename: `${base}.xlsx`,
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    body: Buffer.from(buffer),
  };
}
