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

/** The columns of the downloaded report: the server's stored report's, with the verdict in words before the outcome's code. */
export const REPORT_COLUMNS = [...BULK_REPORT_COLUMNS.slice(0, 5), 'verdict', ...BULK_REPORT_COLUMNS.slice(5)] as const;
export type ReportColumn = (typeof REPORT_COLUMNS)[number];

/**
 * The whole file's report: every row with its outcome, for the person who sent it — the column
 * names and each row's verdict in the interface language, the outcome's code kept for machines.
 */
export function reportCsv(
  rows: readonly BulkInvitationRow[],
  text: { column: (column: ReportColumn) => string; verdict: (row: BulkInvitationRow) => string },
): string {
  const body = rows.map((r) => {
    const cells = bulkReportCells(r);
    return line([...cells.slice(0, 5), text.verdict(r), ...cells.slice(5)]);
  });
  return `\uFEFF${[line(REPORT_COLUMNS.map(text.column)), ...body].join('\r\n')}\r\n`;
}

/** A file to start from: the header the server recognises and one example row. */
export function templateCsv(example: { email: string; firstName: string; lastName: string; language: string }): string {
  return `\uFEFF${[
    ['email', 'first_name', 'last_name', 'language'].join(','),
    line([example.email, example.firstName, example.lastName, example.language]),
  ].join('\r\n')}\r\n`;
}

/** Split a list into chunks of `size`. */
export function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}
