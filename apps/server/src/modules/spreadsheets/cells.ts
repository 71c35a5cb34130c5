/**
 * Cells of the exports the portal writes (members, the audit trail, the bulk-invitation report):
 * spreadsheet formula injection (OWASP) is neutralised by prefixing a cell that starts with
 * = + - @ tab or CR with '.
 */
export function neutralizeFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}
