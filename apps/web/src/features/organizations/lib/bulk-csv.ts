import { BULK_REPORT_COLUMNS, bulkReportCells, type BulkInvitationRow } from '@partner-portal/contracts';

/**
 * Writing (never parsing) the CSV of the bulk invitation's chunks and of its report
 * (docs/decisions/018-the-administrators-day.md, "Bulk invitations"): the server parses every file
 * with csv-parse; the web app only writes rows it got from the server back out, each cell quoted
 * (RFC 4180: a quote inside a cell is doubled).
 */
const cell = (value: string | number | null | undefined) => `"${String(value ?? '').replace(/"/g, '""')}"`;
const line = (cells: (string | number | null | undefined)[]) => cells.map(cell).join(',');

/** The rows to send in one request, with the header the server recognises. */
export function chunkCsv(rows: readonly BulkInvitationRow[]): string {
  return [
    line(['email', 'first_name', 'last_name', 'language']),
    ...rows.map((r) => line([r.email_address, r.first_name, r.last_name, r.language_code ?? ''])),
  ].join('\r\n');
}

/** The whole file's report: every row with its outcome (the columns of the server's stored report). */
export function reportCsv(rows: readonly BulkInvitationRow[]): string {
  return `\uFEFF${[line([...BULK_REPORT_COLUMNS]), ...rows.map((r) => line(bulkReportCells(r)))].join('\r\n')}\r\n`;
}

/** Split a list into chunks of `size`. */
export function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}
