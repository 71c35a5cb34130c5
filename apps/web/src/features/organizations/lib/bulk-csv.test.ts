import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import type { BulkInvitationRow } from '@partner-portal/contracts';
import { chunkCsv, chunks, reportCsv } from './bulk-csv';

const row = (over: Partial<BulkInvitationRow>): BulkInvitationRow => ({
  line: 2,
  email_address: 'a@b.example',
  first_name: 'Ann',
  last_name: 'Bee',
  language_code: null,
  outcome: 'ok',
  ...over,
});

describe('bulk invitation CSV', () => {
  it('writes chunks a CSV parser reads back cell for cell, quotes and separators included', () => {
    const rows = [
      row({}),
      row({ line: 3, email_address: 'c@d.example', first_name: 'Jo "JJ", Jr', last_name: 'O;Neil', language_code: 'nl' }),
    ];
    expect(parse(chunkCsv(rows), { columns: true })).toEqual([
      { email: 'a@b.example', first_name: 'Ann', last_name: 'Bee', language: '' },
      { email: 'c@d.example', first_name: 'Jo "JJ", Jr', last_name: 'O;Neil', language: 'nl' },
    ]);
  });

  it('writes the report with one line per row and its outcome', () => {
    const parsed = parse<Record<string, string>>(
      reportCsv([row({ outcome: 'sent', invitation_id: 'x' }), row({ line: 3, outcome: 'duplicate_in_file' })]),
      {
        columns: true,
        bom: true,
      },
    );
    expect(parsed.map((r) => [r.line, r.outcome, r.invitation_id])).toEqual([
      ['2', 'sent', 'x'],
      ['3', 'duplicate_in_file', ''],
    ]);
  });

  it('splits into chunks', () => {
    expect(chunks([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
  });
});
