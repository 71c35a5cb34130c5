import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  changeRightsRequestSchema,
  memberExportQuerySchema,
  memberIdParamsSchema,
  memberRightsResponseSchema,
  organizationMemberParamsSchema,
  bulkRemoveMembersRequestSchema,
  bulkRemoveMembersResponseSchema,
} from '@partner-portal/contracts';
import type { MemberExport } from './export.js';
import type { Members } from './service.js';
import { actorRoutes, noContent } from '../../http/route-kit.js';

const params = memberIdParamsSchema;

/** Members (docs/product.md, "Calls" Members, and DELETE /api/organizations/{id}/members/{memberId}). */
export const memberRoutes: FastifyPluginAsyncZod<{ members: Members; memberExport: MemberExport }> = async (app, options) => {
  const { members, memberExport } = options;
  const route = actorRoutes(app, ['members']);

  route('GET /api/members/rights/:memberId', {
    summary: 'A member’s rights with the context the editor needs (userManager of the member’s subtree)',
    params,
    response: { 200: memberRightsResponseSchema },
    answer: (actor, { params }) => members.rights(actor, params.memberId),
  });

  route('PUT /api/members/rights/:memberId', {
    summary: 'Change a member’s rights (the rights rules and delegation; 409 invalid_rights lists the refused boxes)',
    description:
      'When a right is taken away, the member’s portal sessions end, their tokens are revoked and their clients get back-channel logout.',
    params,
    body: changeRightsRequestSchema,
    response: { 204: noContent },
    answer: (actor, { params, body }) => members.changeRights(actor, params.memberId, body.rights),
  });

  route('DELETE /api/organizations/:organizationId/members/:memberId', {
    summary: 'Remove a member: the user account and its sessions are deleted; irreversible',
    description:
      'Everything the OpenID provider issued to the user (sessions, grants, access and refresh tokens) is revoked, and their clients get back-channel logout.',
    params: organizationMemberParamsSchema,
    response: { 204: noContent },
    answer: (actor, { params }) => members.remove(actor, params.organizationId, params.memberId),
  });

  route('POST /api/members/bulk-remove', {
    summary: 'Remove several members at once (userManager of each member’s subtree); all or none; irreversible',
    description:
      'Each member is removed with the rules of removing one (DELETE /api/organizations/{id}/members/{memberId}) and audited as `member.remove`; ' +
      'their sessions end, their tokens are revoked and their clients get back-channel logout. 1–200 distinct membership ids. ' +
      'If one member is refused, nobody is removed and the problem names the refused member in `params.member_id`.',
    body: bulkRemoveMembersRequestSchema,
    response: { 200: bulkRemoveMembersResponseSchema },
    answer: (actor, { body }) => members.removeMany(actor, body.member_ids),
  });

  route('POST /api/members/:memberId/sign-out', {
    summary: 'Sign a member out everywhere (userManager of the member’s subtree; audited as member.sign_out)',
    description:
      'Ends the member’s portal sessions, revokes everything the OpenID provider issued to them and sends back-channel logout to their clients. Not oneself (409).',
    params,
    response: { 204: noContent },
    answer: (actor, { params }) => members.signOut(actor, params.memberId),
  });

  route('GET /api/members/export', {
    summary: 'Export the members of the actor’s subtree (or of organizationId within it) as CSV or XLSX',
    querystring: memberExportQuerySchema,
    produces: ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    response: { 200: z.any().describe('The file, as an attachment') },
    answer: (actor, { query }) => memberExport.file(actor, query),
  });
};
