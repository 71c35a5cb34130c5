import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import {
  BULK_INVITATION_MAX_ROWS,
  BULK_REPORT_COLUMNS,
  bulkReportCells,
  USER_LANGUAGES,
  emailSchema,
  isDomainAllowed,
  type BulkInvitationOutcome,
  type BulkInvitationResponse,
  type BulkInvitationRow,
  type BulkInvitationVerdict,
  type Rights,
} from '@partner-portal/contracts';
import type { Database, Queryable } from '../../db/client.js';
import { AppError } from '../../http/problem.js';
import { audit } from '../audit/service.js';
import { neutralizeFormula } from '../../http/spreadsheet.js';
import { getRights } from '../members/service.js';
import { rightsContextFor, validateRights } from '../members/rights-context.js';
import { assertInSubtree, requireRole, type Actor } from '../../http/access.js';
import { findOrganizationById, listEmailDomains } from '../organizations/queries.js';
import type { Logger } from 'pino';
import { createInvitation, type InvitationDeps } from './service.js';

export type BulkInvitationDeps = InvitationDeps & { log: Logger };

/** Invitations sent at once while sending a file. */
const SEND_CONCURRENCY = 4;

/**
 * Bulk invitations from a CSV file (docs/decisions/018-the-administrators-day.md). The file is
 * parsed by csv-parse; a dry run answers per row what would happen; sending invites every row
 * that is ok through createInvitation (each with all the rules and the audit of one invitation)
 * and stores a report to download.
 */

interface ParsedRow {
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

function languageOf(value: string): string | null | undefined {
  const code = value.trim().toLowerCase();
  if (!code) return null;
  const base = code.split(/[-_]/)[0]!;
  return (USER_LANGUAGES as readonly string[]).includes(base) ? base : undefined;
}

async function existingEmails(q: Queryable, emails: string[]): Promise<{ members: Set<string>; invited: Set<string> }> {
  const [members, invited] = await Promise.all([
    q.query<{ e: string }>('SELECT lower(email) AS e FROM users WHERE lower(email) = ANY($1::text[])', [emails]),
    q.query<{ e: string }>(
      `SELECT lower(email) AS e FROM invitations WHERE state = 'PENDING' AND expires_at > now() AND lower(email) = ANY($1::text[])`,
      [emails],
    ),
  ]);
  return { members: new Set(members.rows.map((r) => r.e)), invited: new Set(invited.rows.map((r) => r.e)) };
}

interface Plan {
  org: { id: string; path: string; depth: number };
  rights: Rights | null;
  rows: BulkInvitationRow[];
}

/**
 * The checks of the dry run, the same for the sending: the actor is a userManager of the
 * organization's subtree; the copied rights pass the rights check of the organization (else 409
 * invalid_rights for the whole file); then each row gets its verdict.
 */
async function plan(
  db: Database,
  actor: Actor,
  organizationId: string,
  input: { csv: string; rights_from_member_id?: string | null | undefined },
): Promise<Plan> {
  const member = requireRole(actor, 'user');
  const org = await findOrganizationById(db, organizationId);
  if (!org) throw new AppError('not_found');
  assertInSubtree(member, org.path);
  const parsed = parseInvitationCsv(input.csv);
  let rights: Rights | null = null;
  if (input.rights_from_member_id) {
    // reading the member's rights is checked as the rights editor checks it
    const source = await getRights(db, actor, input.rights_from_member_id);
    rights = validateRights(source.rights, await rightsContextFor(db, org, actor.user.isDeveloper), null);
  }
  const domains = await listEmailDomains(db, org.id);
  const valid = parsed.map((r) => emailSchema.safeParse(r.email));
  const known = await existingEmails(
    db,
    valid.flatMap((v) => (v.success ? [v.data.toLowerCase()] : [])),
  );
  const seen = new Set<string>();
  const rows = parsed.map((r, i): BulkInvitationRow => {
    const check = valid[i]!;
    const email = check.success ? check.data : r.email;
    const language = languageOf(r.language);
    const verdict = ((): BulkInvitationVerdict => {
      if (!check.success) return 'invalid_address';
      const key = email.toLowerCase();
      if (seen.has(key)) return 'duplicate_in_file';
      seen.add(key);
      if (!isDomainAllowed(email, domains)) return 'domain_not_allowed';
      if (known.members.has(key)) return 'already_member';
      if (known.invited.has(key)) return 'already_invited';
      if (language === undefined) return 'invalid_language';
      if (r.firstName.length > 100 || r.lastName.length > 100) return 'invalid_name';
      return 'ok';
    })();
    return {
      line: r.line,
      email_address: email,
      first_name: r.firstName,
      last_name: r.lastName,
      language_code: language ?? null,
      outcome: verdict,
    };
  });
  return { org, rights, rows };
}

function summary(organizationId: string, rows: BulkInvitationRow[], dryRun: boolean, good: BulkInvitationOutcome): BulkInvitationResponse {
  const ok = rows.filter((r) => r.outcome === good).length;
  return { organization_id: organizationId, dry_run: dryRun, total: rows.length, ok, refused: rows.length - ok, rows };
}

/** The dry run: what would happen to each row. Nothing is stored or sent. */
export async function dryRunBulkInvitation(
  db: Database,
  actor: Actor,
  organizationId: string,
  input: { csv: string; rights_from_member_id?: string | null | undefined },
): Promise<BulkInvitationResponse> {
  const { org, rows } = await plan(db, actor, organizationId, input);
  return summary(org.id, rows, true, 'ok');
}

/** Map a refusal of createInvitation (a race since the dry run) to a row's outcome. */
function outcomeOf(err: unknown): BulkInvitationOutcome {
  if (!(err instanceof AppError)) return 'failed';
  switch (err.key) {
    case 'invitation_already_pending':
      return 'already_invited';
    case 'email_address_already_exists':
    case 'user_already_member':
      return 'already_member';
    case 'not_allowed_to_invite_other_domains':
      return 'domain_not_allowed';
    case 'invalid_email_address':
      return 'invalid_address';
    default:
      return 'failed';
  }
}

/**
 * Send: every row that is ok is invited with createInvitation (its checks, audit entry and
 * e-mail); the others are reported with their verdict. The report is stored (batch_id) and audited
 * as invitation.bulk.
 */
export async function sendBulkInvitation(
  deps: BulkInvitationDeps,
  actor: Actor,
  organizationId: string,
  input: { csv: string; rights_from_member_id?: string | null | undefined },
): Promise<BulkInvitationResponse> {
  const { org, rights, rows } = await plan(deps.db, actor, organizationId, input);
  const report: BulkInvitationRow[] = [...rows];
  const sendRow = async (index: number) => {
    const row = rows[index]!;
    try {
      const created = await createInvitation(deps, actor, org.id, {
        email_address: row.email_address,
        language_code: row.language_code,
        rights,
      });
      report[index] = { ...row, outcome: 'sent', invitation_id: created.invitation.invitation_id };
    } catch (err) {
      const outcome = outcomeOf(err);
      if (outcome === 'failed') deps.log.warn({ err, line: row.line }, 'bulk invitation row failed');
      report[index] = { ...row, outcome };
    }
  };
  // a few at a time: each is one short transaction and one e-mail; the rows are distinct addresses
  const pending = rows.flatMap((r, i) => (r.outcome === 'ok' ? [i] : []));
  await Promise.all(
    Array.from({ length: Math.min(SEND_CONCURRENCY, pending.length) }, async () => {
      for (let next = pending.shift(); next !== undefined; next = pending.shift()) await sendRow(next);
    }),
  );
  const result = summary(org.id, report, false, 'sent');
  const batchId = await deps.db.transaction(async (tx) => {
    const { rows: inserted } = await tx.query<{ id: string }>(
      'INSERT INTO invitation_batches (organization_id, created_by, sent, refused, rows) VALUES ($1, $2, $3, $4, $5) RETURNING id',
      [org.id, actor.user.id, result.ok, result.refused, JSON.stringify(report)],
    );
    const id = inserted[0]!.id;
    await audit(tx, actor, {
      organizationId: org.id,
      organizationPath: org.path,
      action: 'invitation.bulk',
      targetType: 'invitation_batch',
      targetId: id,
      after: {
        total: result.total,
        sent: result.ok,
        refused: result.refused,
        rights_from_member_id: input.rights_from_member_id ?? null,
        rights,
      },
    });
    return id;
  });
  return { batch_id: batchId, ...result };
}

/** The stored report of a sending, as CSV, for the userManagers of the organization's subtree. */
export async function invitationBatchReport(db: Database, actor: Actor, batchId: string): Promise<{ filename: string; body: string }> {
  const member = requireRole(actor, 'user');
  const { rows } = await db.query<{ path: string; created_at: Date | string; rows: BulkInvitationRow[] }>(
    'SELECT o.path, b.created_at, b.rows FROM invitation_batches b JOIN organizations o ON o.id = b.organization_id WHERE b.id = $1',
    [batchId],
  );
  const batch = rows[0];
  if (!batch) throw new AppError('not_found');
  assertInSubtree(member, batch.path);
  const body = stringify(
    batch.rows.map((r) => bulkReportCells(r).map(neutralizeFormula)),
    { header: true, columns: [...BULK_REPORT_COLUMNS], bom: true },
  );
  const stamp = new Date(batch.created_at).toISOString().slice(0, 10);
  return { filename: `invitations-${batch.path.replace(/\//g, '_')}-${stamp}.csv`, body };
}
