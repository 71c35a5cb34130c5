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
import { CHANGE_PROBLEMS, documented, noContent, noContentAfter, SCOPED_PROBLEMS, sendDownload } from '../../http/route-kit.js';

const tags = ['members'];

/** Members (docs/product.md, "Calls" Members, and DELETE /api/organizations/{id}/members/{memberId}). */
export const memberRoutes: FastifyPluginAsyncZod<{ members: Members; memberExport: MemberExport }> = async (app, options) => {
  const { members, memberExport } = options;

  app.get(
    '/api/members/rights/:memberId',
    documented(
      {
        tags,
        summary: 'A member’s rights with the context the editor needs (userManager of the member’s subtree)',
        params: memberIdParamsSchema,
        response: { 200: memberRightsResponseSchema },
      },
      SCOPED_PROBLEMS,
    ),
    async (request) => members.rights(await request.actor(), request.params.memberId),
  );

  app.put(
    '/api/members/rights/:memberId',
    documented(
      {
        tags,
        summary: 'Change a member’s rights (the rights rules and delegation; 409 invalid_rights lists the refused boxes)',
        description:
          'When a right is taken away, the member’s portal sessions end, their tokens are revoked and their clients get back-channel logout.',
        params: memberIdParamsSchema,
        body: changeRightsRequestSchema,
        response: { 204: noContent },
      },
      CHANGE_PROBLEMS,
    ),
    async (request, reply) =>
      noContentAfter(reply, members.changeRights(await request.actor(), request.params.memberId, request.body.rights)),
  );

  app.delete(
    '/api/organizations/:organizationId/members/:memberId',
    documented(
      {
        tags,
        summary: 'Remove a member: the user account and its sessions are deleted; irreversible',
        description:
          'Everything the OpenID provider issued to the user (sessions, grants, access and refresh tokens) is revoked, and their clients get back-channel logout.',
        params: organizationMemberParamsSchema,
        response: { 204: noContent },
      },
      CHANGE_PROBLEMS,
    ),
    async (request, reply) => {
      const { organizationId, memberId } = request.params;
      return noContentAfter(reply, members.remove(await request.actor(), organizationId, memberId));
    },
  );

  app.post(
    '/api/members/bulk-remove',
    documented(
      {
        tags,
        summary: 'Remove several members at once (userManager of each member’s subtree); all or none; irreversible',
        description:
          'Each member is removed with the rules of removing one (DELETE /api/organizations/{id}/members/{memberId}) and audited as `member.remove`; ' +
          'their sessions end, their tokens are revoked and their clients get back-channel logout. 1–200 distinct membership ids. ' +
          'If one member is refused, nobody is removed and the problem names the refused member in `params.member_id`.',
        body: bulkRemoveMembersRequestSchema,
        response: { 200: bulkRemoveMembersResponseSchema },
      },
      CHANGE_PROBLEMS,
    ),
    async (request) => members.removeMany(await request.actor(), request.body.member_ids),
  );

  app.post(
    '/api/members/:memberId/sign-out',
    documented(
      {
        tags,
        summary: 'Sign a member out everywhere (userManager of the member’s subtree; audited as member.sign_out)',
        description:
          'Ends the member’s portal sessions, revokes everything the OpenID provider issued to them and sends back-channel logout to their clients. Not oneself (409).',
        params: memberIdParamsSchema,
        response: { 204: noContent },
      },
      CHANGE_PROBLEMS,
    ),
    async (request, reply) => noContentAfter(reply, members.signOut(await request.actor(), request.params.memberId)),
  );

  app.get(
    '/api/members/export',
    documented(
      {
        tags,
        summary: 'Export the members of the actor’s subtree (or of organizationId within it) as CSV or XLSX',
        querystring: memberExportQuerySchema,
        produces: ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
        response: { 200: z.any().describe('The file, as an attachment') },
      },
      SCOPED_PROBLEMS,
    ),
    async (request, reply) => sendDownload(reply, await memberExport.file(await request.actor(), request.query)),
  );
};
