import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { secondFactorLoginRequestSchema } from '@partner-portal/contracts';
import type { SecondStep } from './second-step.js';
import { SECOND_STEP_COOKIE, signInAnswer, startProvenSession, tags } from './shared-routes.js';
import { routes } from '../../http/route-kit.js';

/** The second step of the sign-in with a code (docs/second-factors.md); a passkey's is in passkey-routes.ts. */
export const signInRoutes: FastifyPluginAsyncZod<{ secondStep: SecondStep }> = async (app, { secondStep }) => {
  const route = routes(app, tags);
  route('POST /api/identity/second-factor', {
    summary: 'Login step 3 (accounts with a second factor): a code of the authenticator app or a recovery code',
    body: secondFactorLoginRequestSchema,
    response: signInAnswer,
    handler: async (request, reply) =>
      startProvenSession(
        secondStep,
        request,
        reply,
        await secondStep.complete({ secondStepCookie: request.cookies[SECOND_STEP_COOKIE], ip: request.ip, code: request.body.code }),
      ),
  });
};
