import { stringify } from 'csv-stringify/browser/esm/sync';
import { BULK_REPORT_COLUMNS, bulkReportCells, type BulkInvitationRow } from '@partner-portal/contracts';

/**
 * Writing (never parsing) the CSV of the bulk invitation's chunks and of its report
 * (docs/decisions/018-the-administrators-day.md, "Bulk invitations"): the server parses every file
 * with csv-parse; the web app only writes rows it got from the server back out, with csv-stringify
 * (the server's own writer), each cell quoted and lines ended by CRLF (RFC 4180).
 */
type Cell = string | number | null | undefined;
const csv = (lines: Cell[][]) => stringify(lines, { quoted: true, record_delimiter: '\r\n', cast: { number: String } });

/** The rows to send in one request, with the header the server recognises. */
export function chunkCsv(rows: readonly BulkInvitationRow[]): string {
  return csv([
    ['email', 'first_name', 'last_name', 'language'],
    ...rows.map((r) => [r.email_address, r.first_name, r.last_name, r.language_code ?? '']),
  ]);
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
    return [...cells.slice(0, 5), text.verdict(r), ...cells.slice(5)];
  });
  return `\uFEFF${csv([REPORT_COLUMNS.map(text.column), ...body])}`;
}

/** A file to start from: the header the server recognises and one example row. */
export function templateCsv(example: { email: string; firstName: string; lastName: string; language: string }): string {
  return `\uFEFF${csv([
    ['email', 'first_name', 'last_name', 'language'],
    [example.email, example.firstName, example.lastName, example.language],
  ])}`;
}

/** Split a list into chunks of `size`. */
export function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}
