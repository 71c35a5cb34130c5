import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  bulkInvitationRequestSchema,
  bulkInvitationResponseSchema,
  invitationBatchParamsSchema,
  organizationIdParamsSchema,
} from '@partner-portal/contracts';
import type { BulkInvitations } from './bulk.js';
import { actorRoutes } from '../../http/route-kit.js';

const description =
  'The body carries the CSV text in `csv`: a header row naming the columns email (or email_address), first_name, last_name and language ' +
  '(or language_code), or no header and those four columns in that order; comma or semicolon separated; at most 1,000 rows. ' +
  'Optional `rights_from_member_id` copies that member’s rights (a member the actor may edit) to every invitation, checked against the organization as ' +
  'the invitation form checks rights (409 invalid_rights); without it the invitations carry no rights. Each row gets an outcome: ok (would be sent), ' +
  'invalid_address, domain_not_allowed, already_member, already_invited, duplicate_in_file (a later row of an address already in the file), ' +
  'invalid_language (not one of en, nl, de, fr, es, pt-BR — a tag such as nl-BE or pt names its language; empty: the inviter’s language; the row’s language_code then answers the value the file gave) or invalid_name (over 100 characters, or a control character such as NUL). ' +
  'Every cell is checked before anything is made; a control character in a cell is answered and reported as U+FFFD.';
/** What the dry run and the sending both take and answer: a CSV file for an organization, and what became of each row. */
const csvOfOrganization = {
  params: organizationIdParamsSchema,
  body: bulkInvitationRequestSchema,
  response: { 200: bulkInvitationResponseSchema },
};

/** Bulk invitations from a CSV file: dry run, sending, and the sending's report. */
export const bulkInvitationRoutes: FastifyPluginAsyncZod<{ bulkInvitations: BulkInvitations }> = async (app, { bulkInvitations }) => {
  const route = actorRoutes(app, ['invitations']);

  route('POST /api/organizations/:organizationId/invitations/bulk/dry-run', {
    summary: 'Dry run of a CSV file of invitations (userManager): what would happen to each row; nothing is sent or stored',
    description,
    ...csvOfOrganization,
    answer: (actor, { params, body }) => bulkInvitations.dryRun(actor, params.organizationId, body),
  });

  route('POST /api/organizations/:organizationId/invitations/bulk', {
    summary: 'Send the invitations of a CSV file (userManager): every ok row is invited and e-mailed; the report is stored (batch_id)',
    description: `${description} Every ok row is invited with the rules and audit entry of a single invitation (outcome sent); the sending is audited as invitation.bulk. The invitations, the report and its audit entry are stored together or not at all; the e-mails go out after that. Download the report at GET /api/invitations/batches/{batch_id}/report.`,
    ...csvOfOrganization,
    answer: (actor, { params, body }) => bulkInvitations.send(actor, params.organizationId, body),
  });

  route('GET /api/invitations/batches/:batchId/report', {
    summary:
      'The report of a bulk invitation as CSV (userManager of the organization’s subtree): line, e-mail, names, language, outcome, invitation id',
    params: invitationBatchParamsSchema,
    produces: ['text/csv'],
    response: { 200: z.any().describe('The CSV file, as an attachment') },
    answer: (actor, { params }) => bulkInvitations.report(actor, params.batchId),
  });
};
