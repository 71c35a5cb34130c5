/**
 * Cells of the exports the portal writes (members, the audit trail, the bulk-invitation report):
 * spreadsheet formula injection (OWASP) is neutralised by prefixing a cell that starts with
 * = + - @ tab or CR with '.
 */
export function neutralizeFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** A file answered as an attachment (an export, a report): http/route-kit.ts sendDownload. */
export interface DownloadFile {
  filename: string;
  contentType: string;
  body: Buffer | string;
}
