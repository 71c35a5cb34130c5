import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import type { BulkInvitationRow } from '@partner-portal/contracts';
import { chunkCsv, chunks, reportCsv, templateCsv } from './bulk-csv';

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
      reportCsv(
        [
          row({ outcome: 'sent', invitation_id: 'x' }),
          row({ line: 3, outcome: 'duplicate_in_file' }),
          row({ line: 4, outcome: 'invalid_language', language_code: 'xx' }),
        ],
        { column: (c) => (c === 'outcome' ? 'outcome' : `[${c}]`), verdict: (r) => `«${r.outcome} ${r.language_code ?? ''}»` },
      ),
      {
        columns: true,
        bom: true,
      },
    );
    expect(Object.keys(parsed[0]!)).toEqual([
      '[line]',
      '[email_address]',
      '[first_name]',
      '[last_name]',
      '[language_code]',
      '[verdict]',
      'outcome',
      '[invitation_id]',
    ]);
    expect(parsed.map((r) => [r['[line]'], r['[verdict]'], r.outcome, r['[invitation_id]']])).toEqual([
      ['2', '«sent »', 'sent', 'x'],
      ['3', '«duplicate_in_file »', 'duplicate_in_file', ''],
      ['4', '«invalid_language xx»', 'invalid_language', ''],
    ]);
  });

  it('writes a template the server reads: its header and one example row', () => {
    const parsed = parse<Record<string, string>>(
      templateCsv({ email: 'ana.souza@dealer.example', firstName: 'Ana', lastName: 'Souza, Jr.', language: 'pt-BR' }),
      { columns: true, bom: true },
    );
    expect(parsed).toEqual([{ email: 'ana.souza@dealer.example', first_name: 'Ana', last_name: 'Souza, Jr.', language: 'pt-BR' }]);
  });

  it('splits into chunks', () => {
    expect(chunks([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
  });
});
