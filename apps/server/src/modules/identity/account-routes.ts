import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  changePasswordRequestSchema,
  forgotPasswordRequestSchema,
  resetPasswordRequestSchema,
  updateProfileRequestSchema,
  userInfoSchema,
  validateTokenRequestSchema,
  validateTokenResponseSchema,
} from '@partner-portal/contracts';
import { z } from 'zod';
import { routes } from '../../http/route-kit.js';
import { userInfoBody } from './user-info.js';
import type { Accounts } from './account.js';

/**
 * The signed-in user and their account (docs/product.md, "Calls" under /api/identity): who is
 * signed in, the profile, and the password (changed, forgotten, reset). HTTP only: the request is
 * read into values for account.ts.
 */
export const accountRoutes: FastifyPluginAsyncZod<{ accounts: Accounts }> = async (app, { accounts }) => {
  const { services } = app;
  const route = routes(app, ['identity']);

  route('GET /api/identity/user-info', {
    summary: 'The signed-in user',
    response: { 200: userInfoSchema },
    problems: [401],
    handler: async (request, reply) => {
      const user = await services.sessions.require(request, { allowPendingPasswordChange: true });
      // already JSON (userInfoBody): a string with a JSON content type is sent as it is; the
      // schema above describes it
      return reply.header('cache-control', 'no-store').type('application/json; charset=utf-8').send(userInfoBody(user));
    },
  });

  route('POST /api/identity/change-password', {
    summary: 'Change the password (native accounts)',
    description:
      'The other browsers signed in as the user are signed out, and every grant and token of the user’s clients is revoked (back-channel logout); this browser stays signed in to the portal.',
    body: changePasswordRequestSchema,
    response: { 204: z.null() },
    problems: [400, 401, 403, 409],
    handler: async (request, reply) => {
      const user = await services.sessions.require(request, { allowPendingPasswordChange: true });
      await accounts.changePassword(user, request.body);
      return reply.code(204).send(null);
    },
  });

  route('PUT /api/identity/update-profile', {
    summary: 'Update names and language',
    body: updateProfileRequestSchema,
    response: { 204: z.null() },
    problems: [400, 401, 403],
    handler: async (request, reply) => {
      await accounts.updateProfile(await services.sessions.require(request), request.body);
      return reply.code(204).send(null);
    },
  });

  route('POST /api/identity/forgot-password', {
    summary: 'Send a reset link (always 204)',
    body: forgotPasswordRequestSchema,
    response: { 204: z.null() },
    problems: [400],
    handler: async (request, reply) => {
      await accounts.forgotPassword(request.ip, request.body.email_address);
      return reply.code(204).send(null);
    },
  });

  route('POST /api/identity/validate-reset-token', {
    summary: 'Whether a reset link still works',
    body: validateTokenRequestSchema,
    response: { 200: validateTokenResponseSchema },
    problems: [400],
    handler: async (request) => accounts.validateResetToken(request.body),
  });

  route('PUT /api/identity/reset-password', {
    summary: 'Set a new password with a reset link',
    description: 'Every session of the user ends, and every grant and token of the user’s clients is revoked (back-channel logout).',
    body: resetPasswordRequestSchema,
    response: { 200: z.object({}) },
    problems: [400, 409],
    handler: async (request) => {
      await accounts.resetPassword(request.ip, request.body);
      return {};
    },
  });
};
