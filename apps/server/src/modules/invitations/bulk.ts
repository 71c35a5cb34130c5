import { stringify } from 'csv-stringify/sync';
import {
  BULK_REPORT_COLUMNS,
  bulkReportCells,
  emailSchema,
  isDomainAllowed,
  type BulkInvitationOutcome,
  type BulkInvitationResponse,
  type BulkInvitationRow,
  type BulkInvitationVerdict,
  type Rights,
} from '@partner-portal/contracts';
import type { Database } from '../../db/client.js';
import { AppError } from '../../http/problem.js';
import { auditRefusal, RefusedChange } from '../audit/service.js';
import { recordChange } from '../webhooks/changes.js';
import type { DownloadFile } from '../../http/route-kit.js';
import { neutralizeFormula } from '../spreadsheets/cells.js';
import type { Members } from '../members/service.js';
import { rightsContextFor, validateRights } from '../members/rights-context.js';
import { actingAs, type Actor } from '../../http/session.js';
import { assertInSubtree, requireRole } from '../scope/access.js';
import { listEmailDomains } from '../organizations/queries.js';
import { organizationForActor } from '../scope/service.js';
import type { Logger } from 'pino';
import { pgErrorCode } from '../../db/errors.js';
import { asSavepoint } from '../../db/sql.js';
import * as q from './queries.js';
import { isName, languageOf, parseInvitationCsv, reported } from './bulk-csv.js';
import type { Invitations } from './service.js';

/** A CSV file of invitations, and optionally the member whose rights every invitation carries. */
type BulkInput = { csv: string; rights_from_member_id?: string | null | undefined };

/**
 * Bulk invitations from a CSV file (docs/decisions/018-the-administrators-day.md). The file is
 * parsed by csv-parse and every cell checked before anything is made; a dry run answers per row
 * what would happen; sending invites every row that is ok with Invitations.make (each with all the
 * rules and the audit of one invitation) and stores a report to download — the invitations, the
 * report, its audit entry and the e-mails (the mail outbox) in one transaction.
 */

interface Plan {
  org: { id: string; path: string; depth: number };
  rights: Rights | null;
  rows: BulkInvitationRow[];
}

function summary(organizationId: string, rows: BulkInvitationRow[], dryRun: boolean, good: BulkInvitationOutcome): BulkInvitationResponse {
  const ok = rows.filter((r) => r.outcome === good).length;
  return { organization_id: organizationId, dry_run: dryRun, total: rows.length, ok, refused: rows.length - ok, rows };
}

/** Map a refusal of Invitations.make (a race since the checks of the plan) to a row's outcome. */
function outcomeOf(err: unknown): BulkInvitationOutcome {
  // another request made a pending invitation of the address meanwhile (unique index)
  if (pgErrorCode(err) === '23505') return 'already_invited';
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

/** Bulk invitations of the actor's subtree from a CSV file (the rules: the comment at the top of this file). */
export class BulkInvitations {
  constructor(private readonly deps: { db: Database; log: Logger; invitations: Invitations; members: Members }) {}

  /**
   * The checks of the dry run, the same for the sending: the actor is a userManager of the
   * organization's subtree; the copied rights pass the rights check of the organization (else 409
   * invalid_rights for the whole file); then each row gets its verdict.
   */
  private async plan(actor: Actor, organizationId: string, input: BulkInput): Promise<Plan> {
    const { db, members } = this.deps;
    const { org } = await organizationForActor(db, actor, organizationId, { role: 'user' });
    const parsed = parseInvitationCsv(input.csv);
    let rights: Rights | null = null;
    if (input.rights_from_member_id) {
      // reading the member's rights is checked as the rights editor checks it
      const source = await members.rights(actor, input.rights_from_member_id);
      rights = validateRights(source.rights, await rightsContextFor(db, org, actingAs(actor).isDeveloper), null);
    }
    const domains = await listEmailDomains(db, org.id);
    const valid = parsed.map((r) => emailSchema.safeParse(r.email));
    const known = await q.existingEmails(
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
        if (!isName(r.firstName) || !isName(r.lastName)) return 'invalid_name';
        return 'ok';
      })();
      return {
        line: r.line,
        email_address: reported(email),
        first_name: reported(r.firstName),
        last_name: reported(r.lastName),
        // a language refused is answered as the file gave it, so the verdict can name it
        language_code: language === undefined ? reported(r.language) : language,
        outcome: verdict,
      };
    });
    return { org, rights, rows };
  }

  /** The dry run: what would happen to each row. Nothing is stored or sent. */
  async dryRun(actor: Actor, organizationId: string, input: BulkInput): Promise<BulkInvitationResponse> {
    const { org, rows } = await this.plan(actor, organizationId, input);
    return summary(org.id, rows, true, 'ok');
  }

  /**
   * Send: in one transaction, every row that is ok is invited with Invitations.make (its checks and
   * audit entry; a row refused meanwhile is rolled back to its savepoint and reported with its
   * reason) and its e-mail written to the mail outbox (Invitations.mail), then the report is stored
   * (batch_id) and audited as invitation.bulk. The e-mails leave once that committed: a sending that
   * fails leaves no invitation, report, audit entry or e-mail behind.
   */
  async send(actor: Actor, organizationId: string, input: BulkInput): Promise<BulkInvitationResponse> {
    const { db, log, invitations } = this.deps;
    const { org, rights, rows } = await this.plan(actor, organizationId, input);
    const { batchId, report } = await db.transaction(async (tx) => {
      const report: BulkInvitationRow[] = [...rows];
      for (const [index, row] of rows.entries()) {
        if (row.outcome !== 'ok') continue;
        try {
          const invitation = await asSavepoint(tx, 'bulk_invitation_row', async () => {
            const made = await invitations.make(tx, actor, org.id, {
              email_address: row.email_address,
              language_code: row.language_code,
              rights,
            });
            await invitations.mail(actor, made, tx);
            return made;
          });
          report[index] = { ...row, outcome: 'sent', invitation_id: invitation.row.id };
        } catch (err) {
          if (err instanceof RefusedChange) await auditRefusal(tx, actor, err);
          const outcome = outcomeOf(err);
          if (outcome === 'failed') log.warn({ err, line: row.line }, 'bulk invitation row failed');
          report[index] = { ...row, outcome };
        }
      }
      const result = summary(org.id, report, false, 'sent');
      const id = await q.insertInvitationBatch(tx, {
        organizationId: org.id,
        createdBy: actor.user?.id ?? null,
        sent: result.ok,
        refused: result.refused,
        rows: report,
      });
      await recordChange(tx, actor, {
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
      return { batchId: id, report };
    });
    return { batch_id: batchId, ...summary(org.id, report, false, 'sent') };
  }

  /** The stored report of a sending, as CSV, for the userManagers of the organization's subtree. */
  async report(actor: Actor, batchId: string): Promise<DownloadFile> {
    const { db } = this.deps;
    const member = requireRole(actor, 'user');
    const batch = await q.findInvitationBatch<BulkInvitationRow>(db, batchId);
    if (!batch) throw new AppError('not_found');
    assertInSubtree(member, batch.path);
    const body = stringify(
      batch.rows.map((r) => bulkReportCells(r).map(neutralizeFormula)),
      { header: true, columns: [...BULK_REPORT_COLUMNS], bom: true },
    );
    const stamp = new Date(batch.created_at).toISOString().slice(0, 10);
    return { filename: `invitations-${batch.path.replace(/\//g, '_')}-${stamp}.csv`, contentType: 'text/csv; charset=utf-8', body };
  }
}
