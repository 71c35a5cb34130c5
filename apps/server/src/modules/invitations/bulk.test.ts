import { describe, expect, it } from 'vitest';
import { AppError } from '../../http/problem.js';
import { parseInvitationCsv } from './bulk-csv.js';

const keyOf = (fn: () => unknown) => {
  try {
    fn();
    return null;
  } catch (err) {
    return err instanceof AppError ? err.key : String(err);
  }
};

describe('parseInvitationCsv', () => {
  it('reads a header in any order and spelling, semicolons, a byte-order mark and quoted cells', () => {
    const rows = parseInvitationCsv('\uFEFFLanguage;E-mail;Last name;First Name\r\nnl;"a@x.example";"de Vries; jr.";Anna\r\n');
    expect(rows).toEqual([{ line: 2, email: 'a@x.example', firstName: 'Anna', lastName: 'de Vries; jr.', language: 'nl' }]);
  });

  it('takes the four columns in order without a header, and numbers the lines of the file (blank lines count)', () => {
    const rows = parseInvitationCsv('a@x.example,Anna,Smit,en\n\nb@x.example,Bert\n');
    expect(rows.map((r) => [r.line, r.email, r.firstName, r.lastName, r.language])).toEqual([
      [1, 'a@x.example', 'Anna', 'Smit', 'en'],
      [3, 'b@x.example', 'Bert', '', ''],
    ]);
  });

  it('refuses an unreadable file, a header without e-mail, no rows, more than 1,000 rows', () => {
    expect(keyOf(() => parseInvitationCsv('email\n"unclosed\n'))).toBe('csv_invalid');
    expect(keyOf(() => parseInvitationCsv('first_name,last_name\nA,B\n'))).toBe('csv_invalid');
    expect(keyOf(() => parseInvitationCsv(''))).toBe('csv_no_rows');
    expect(keyOf(() => parseInvitationCsv('email\n'))).toBe('csv_no_rows');
    expect(keyOf(() => parseInvitationCsv(['email', ...Array.from({ length: 1001 }, (_, i) => `u${i}@x.example`)].join('\n')))).toBe(
      'csv_too_many_rows',
    );
    expect(parseInvitationCsv(['email', ...Array.from({ length: 1000 }, (_, i) => `u${i}@x.example`)].join('\n'))).toHaveLength(1000);
  });
});
