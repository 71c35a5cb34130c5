/**
 * The readable difference of an audit entry's before and after (docs/decisions/018-the-administrators-day.md,
 * "Audit trail"): both are flattened to dotted paths ("rights.partnerPortal.userManager"), and
 * each path whose value differs becomes one line. An entry that only creates shows its after
 * values, one that only removes its before values.
 */
export interface DiffLine {
  path: string;
  before: string | null;
  after: string | null;
}

function scalar(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

function flatten(value: unknown, prefix: string, out: Map<string, string>): void {
  if (value === null || value === undefined) return;
  if (Array.isArray(value)) {
    // a list of plain values reads as one value ("a.example, b.example"); lists of objects by index
    if (value.every((v) => typeof v !== 'object' || v === null)) out.set(prefix, value.map(scalar).join(', '));
    else value.forEach((v, i) => flatten(v, prefix ? `${prefix}.${i}` : String(i), out));
    return;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0 && prefix) out.set(prefix, '');
    for (const [k, v] of entries) flatten(v, prefix ? `${prefix}.${k}` : k, out);
    return;
  }
  out.set(prefix, scalar(value));
}

export function auditDifference(before: unknown, after: unknown): DiffLine[] {
  const a = new Map<string, string>();
  const b = new Map<string, string>();
  flatten(before, '', a);
  flatten(after, '', b);
  const paths = [...new Set([...a.keys(), ...b.keys()])];
  return paths
    .filter((p) => a.get(p) !== b.get(p))
    .map((p) => ({ path: p, before: a.has(p) ? a.get(p)! : null, after: b.has(p) ? b.get(p)! : null }));
}
