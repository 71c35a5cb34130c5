import { parse } from 'csv-parse/sync';
import { BULK_INVITATION_MAX_ROWS, userLanguageOf, type UserLanguage } from '@partner-portal/contracts';
import { AppError } from '../../http/problem.js';

/** Reading a bulk invitation file: csv-parse, the columns it may name, and the cells a row may hold. */

export interface ParsedRow {
  line: number;
  email: string;
  firstName: string;
  lastName: string;
  language: string;
}

const COLUMN_NAMES: Record<string, keyof Omit<ParsedRow, 'line'>> = {
  email: 'email',
  email_address: 'email',
  'e-mail': 'email',
  e_mail: 'email',
  first_name: 'firstName',
  firstname: 'firstName',
  given_name: 'firstName',
  last_name: 'lastName',
  lastname: 'lastName',
  family_name: 'lastName',
  language: 'language',
  language_code: 'language',
};
const POSITIONAL: (keyof Omit<ParsedRow, 'line'>)[] = ['email', 'firstName', 'lastName', 'language'];

const columnKey = (cell: string) =>
  COLUMN_NAMES[
    cell
      .trim()
      .toLowerCase()
      .replace(/[\s-]+/g, '_')
      .replace(/^e_mail(_address)?$/, 'email')
  ];

/** Read the file: a header row naming the columns, or the four columns in order without one. */
export function parseInvitationCsv(csv: string): ParsedRow[] {
  let parsed: { record: string[]; info: { lines: number } }[];
  try {
    parsed = parse(csv, {
      bom: true,
      delimiter: [',', ';'],
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
      info: true,
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch {
    throw new AppError('csv_invalid');
  }
  const records = parsed.filter((r) => r.record.some((c) => c !== ''));
  if (records.length === 0) throw new AppError('csv_no_rows');
  const first = records[0]!.record;
  const named = first.map(columnKey);
  const hasHeader = named.includes('email');
  if (!hasHeader && first.some((c) => columnKey(c) !== undefined))
    throw new AppError('csv_invalid', { detail: 'The header row has no e-mail column' });
  const columns = hasHeader ? named : POSITIONAL;
  const rows: ParsedRow[] = [];
  for (const [index, { record, info }] of records.entries()) {
    if (hasHeader && index === 0) continue;
    // the line of the file the row ends on, as a text editor or spreadsheet numbers it
    const row: ParsedRow = { line: info.lines, email: '', firstName: '', lastName: '', language: '' };
    record.forEach((cell, i) => {
      const key = columns[i];
      if (key) row[key] = cell;
    });
    rows.push(row);
  }
  if (rows.length === 0) throw new AppError('csv_no_rows');
  if (rows.length > BULK_INVITATION_MAX_ROWS) throw new AppError('csv_too_many_rows', { params: { max: BULK_INVITATION_MAX_ROWS } });
  return rows;
}

/**
 * Characters a cell may not hold: control characters — NUL, which PostgreSQL text and jsonb
 * refuse, and the others, which have no place in a name or an e-mail. (csv-parse reads the file
 * as UTF-8, so an unpaired surrogate arrives as U+FFFD, which is text.)
 */
const NOT_TEXT = /\p{Cc}/u;
const NOT_TEXT_ALL = new RegExp(NOT_TEXT.source, 'gu');

/** A name as a row may give it: at most 100 characters of text. */
export function isName(value: string): boolean {
  return value.length <= 100 && !NOT_TEXT.test(value);
}

/** A cell as the report keeps and answers it: what it cannot hold replaced by U+FFFD. */
export function reported(value: string): string {
  return value.replace(NOT_TEXT_ALL, '\uFFFD');
}

/** A row's language: a user language (a tag such as 'nl-BE' or 'pt' names its own), null when empty, undefined when unknown. */
export function languageOf(value: string): UserLanguage | null | undefined {
  if (!value.trim()) return null;
  return userLanguageOf(value) ?? undefined;
}
