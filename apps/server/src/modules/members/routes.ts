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
import type { AccountAccess } from '../sessions/service.js';
import * as service from './service.js';
import { exportMembers } from './export.js';
import { noContent, problems } from '../../http/route-kit.js';

/** Members (docs/product.md, "Calls" Members, and DELETE /api/organizations/{id}/members/{memberId}). */
export const memberRoutes: FastifyPluginAsyncZod<{ access: AccountAccess }> = async (app, { access }) => {
  const { services } = app;

  app.get(
    '/api/members/rights/:memberId',
    {
      schema: {
        tags: ['members'],
        summary: 'A member’s rights with the context the editor needs (userManager of the member’s subtree)',
        params: memberIdParamsSchema,
        response: { 200: memberRightsResponseSchema, ...problems(400, 401, 403, 404) },
      },
    },
    async (request) => service.getRights(services.db, await request.actor(), request.params.memberId),
  );

  app.put(
    '/api/members/rights/:memberId',
    {
      schema: {
        tags: ['members'],
        summary: 'Change a member’s rights (the rights rules and delegation; 409 invalid_rights lists the refused boxes)',
        description:
          'When a right is taken away, the member’s portal sessions end, their tokens are revoked and their clients get back-channel logout.',
        params: memberIdParamsSchema,
        body: changeRightsRequestSchema,
        response: { 204: noContent, ...problems(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await service.changeRights(services.db, access, await request.actor(), request.params.memberId, request.body.rights);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/api/organizations/:organizationId/members/:memberId',
    {
      schema: {
        tags: ['members'],
        summary: 'Remove a member: the user account and its sessions are deleted; irreversible',
        description:
          'Everything the OpenID provider issued to the user (sessions, grants, access and refresh tokens) is revoked, and their clients get back-channel logout.',
        params: organizationMemberParamsSchema,
        response: { 204: noContent, ...problems(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await service.removeMemberEndingAccess(
        services.db,
        services.sessions,
        access,
        await request.actor(),
        request.params.organizationId,
        request.params.memberId,
      );
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/members/bulk-remove',
    {
      schema: {
        tags: ['members'],
        summary: 'Remove several members at once (userManager of each member’s subtree); all or none; irreversible',
        description:
          'Each member is removed with the rules of removing one (DELETE /api/organizations/{id}/members/{memberId}) and audited as `member.remove`; ' +
          'their sessions end, their tokens are revoked and their clients get back-channel logout. 1–200 distinct membership ids. ' +
          'If one member is refused, nobody is removed and the problem names the refused member in `params.member_id`.',
        body: bulkRemoveMembersRequestSchema,
        response: { 200: bulkRemoveMembersResponseSchema, ...problems(400, 401, 403, 404, 409) },
      },
    },
    async (request) => service.removeMembers(services.db, services.sessions, access, await request.actor(), request.body.member_ids),
  );

  app.post(
    '/api/members/:memberId/sign-out',
    {
      schema: {
        tags: ['members'],
        summary: 'Sign a member out everywhere (userManager of the member’s subtree; audited as member.sign_out)',
        description:
          'Ends the member’s portal sessions, revokes everything the OpenID provider issued to them and sends back-channel logout to their clients. Not oneself (409).',
        params: memberIdParamsSchema,
        response: { 204: noContent, ...problems(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await service.signOutMember(services.db, access, await request.actor(), request.params.memberId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/members/export',
    {
      schema: {
        tags: ['members'],
        summary: 'Export the members of the actor’s subtree (or of organizationId within it) as CSV or XLSX',
        querystring: memberExportQuerySchema,
        produces: ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
        response: { 200: z.any().describe('The file, as an attachment'), ...problems(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const file = await exportMembers(services.db, await request.actor(), request.query);
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .header('cache-control', 'no-store')
        .send(file.body);
    },
  );
};
