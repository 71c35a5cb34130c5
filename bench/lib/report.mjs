// The result table: every metric is declared up front with its target, so a step that cannot
// run still shows its rows (unavailable / skipped / error) instead of disappearing.
import { writeFileSync } from 'node:fs';
import { Unavailable } from './util.mjs';

export class Report {
  constructor() {
    this.rows = [];
    this.byKey = new Map();
    this.details = {};
    this.notes = [];
  }

  declare(key, metric, target) {
    const row = { key, metric, value: '-', target, status: 'pending', note: '' };
    this.rows.push(row);
    this.byKey.set(key, row);
    return row;
  }

  /** Set a measured value; status pass/fail comes from `passed` (undefined: info). */
  set(key, value, passed, note = '') {
    const row = this.byKey.get(key);
    if (!row) throw new Error(`undeclared metric ${key}`);
    row.value = value;
    row.status = passed === undefined ? 'info' : passed ? 'pass' : 'fail';
    if (note) row.note = note;
  }

  mark(key, status, note) {
    const row = this.byKey.get(key);
    if (row && row.status === 'pending') {
      row.status = status;
      row.note = note;
    }
  }

  /** Rows of `keys` that a failed step left pending become unavailable/error with the reason. */
  settle(keys, err) {
    const status = err instanceof Unavailable ? 'unavailable' : 'error';
    const note =
      err instanceof Unavailable
        ? err.message.replace(/^unavailable\s*/, '')
        : String(err?.message ?? err)
            .split('\n')[0]
            .slice(0, 160);
    for (const key of keys) this.mark(key, status, note);
  }

  detail(name, value) {
    this.details[name] = value;
  }

  note(text) {
    this.notes.push(text);
  }

  print() {
    const head = ['metric', 'value', 'target', 'result'];
    const body = this.rows.map((r) => [
      r.metric,
      String(r.value),
      r.target,
      r.status === 'pending' ? 'not run' : r.status + (r.note && r.status !== 'pass' ? ` — ${r.note}` : ''),
    ]);
    const widths = head.map((h, i) => Math.min(i === 3 ? 90 : 60, Math.max(h.length, ...body.map((b) => b[i].length))));
    const line = (cells) => cells.map((c, i) => (c.length > widths[i] ? `${c.slice(0, widths[i] - 1)}…` : c.padEnd(widths[i]))).join(' | ');
    const out = [line(head), widths.map((w) => '-'.repeat(w)).join('-|-'), ...body.map(line)];
    console.log(`\n${out.join('\n')}\n`);
    const count = (s) => this.rows.filter((r) => r.status === s).length;
    console.log(
      `${count('pass')} pass, ${count('fail')} fail, ${count('unavailable')} unavailable, ${count('skipped')} skipped, ${count('error')} error, ${count('info')} info`,
    );
    for (const n of this.notes) console.log(`note: ${n}`);
  }

  write(path, meta) {
    const json = {
      ...meta,
      rows: this.rows.map(({ key, metric, value, target, status, note }) => ({
        key,
        metric,
        value,
        target,
        status: status === 'pending' ? 'not run' : status,
        note,
      })),
      details: this.details,
      notes: this.notes,
    };
    writeFileSync(path, `${JSON.stringify(json, null, 2)}\n`);
  }
}
