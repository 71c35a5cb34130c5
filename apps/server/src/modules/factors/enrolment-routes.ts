import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  passkeyRegistrationRequestSchema,
  passkeySchema,
  recoveryCodesResponseSchema,
  totpConfirmRequestSchema,
  totpEnrolmentResponseSchema,
  webauthnOptionsSchema,
} from '@partner-portal/contracts';
import { problems, routes } from '../../http/route-kit.js';
import type { AuthenticatorApp } from './authenticator-app.js';
import type { Passkeys } from './passkeys.js';
import type { Enrollee, ProvenSession, SecondStep } from './second-step.js';
import { enrolleeOf, startProvenSession, tags } from './shared-routes.js';

/**
 * Setting up a factor (docs/second-factors.md), by the signed-in user or by a sign-in that must
 * enrol before its session starts (enrolleeOf): first what the app or the browser needs, then its
 * answer, which keeps the factor and, for such a sign-in, starts the session. Never cached: the
 * answers hold secrets (the app's secret, challenges, recovery codes).
 */
export const enrolmentRoutes: FastifyPluginAsyncZod<{
  authenticatorApp: AuthenticatorApp;
  passkeys: Passkeys;
  secondStep: SecondStep;
}> = async (app, { authenticatorApp, passkeys, secondStep }) => {
  const route = routes(app, tags);
  /** The first step: POST `url` answers what `begin` makes for the enrollee (`response`, checked where it is called). */
  const start = <S extends z.ZodType>(
    url: `/api/${string}`,
    summary: string,
    response: S,
    statuses: number[],
    begin: (enrollee: Enrollee) => Promise<z.input<S>>,
  ) => {
    const answer: z.ZodType = response;
    route(`POST ${url}`, {
      summary,
      response: { 200: answer, ...problems(...statuses) },
      handler: async (request, reply) => {
        void reply.header('cache-control', 'no-store');
        return begin(await enrolleeOf(secondStep, request));
      },
    });
  };

  start(
    '/api/factors/totp',
    'Start setting up an authenticator app: secret, otpauth URI and QR code (also during a sign-in that must enrol)',
    totpEnrolmentResponseSchema,
    [401, 403, 409],
    (enrollee) => authenticatorApp.start(enrollee),
  );

  start(
    '/api/factors/passkeys/registration-options',
    'WebAuthn creation options for a new passkey (password or code within 5 minutes; also during a sign-in that must enrol)',
    webauthnOptionsSchema,
    [401, 403],
    (enrollee) => passkeys.registrationOptions(enrollee),
  );

  route('POST /api/factors/totp/confirm', {
    summary: 'Confirm the authenticator app with a first code; answers the ten recovery codes (shown once)',
    body: totpConfirmRequestSchema,
    response: { 200: recoveryCodesResponseSchema.extend({ valid_return_url: z.string().nullish() }), ...problems(400, 401, 403, 409, 429) },
    handler: async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      const enrollee = await enrolleeOf(secondStep, request);
      return withSession(secondStep, request, reply, await authenticatorApp.confirm(enrollee, request.ip, request.body.code));
    },
  });

  route('POST /api/factors/passkeys', {
    summary:
      'Keep a new passkey (the browser’s answer to the creation options) under a name; the first factor brings recovery codes; a sign-in that must enrol gets its session',
    body: passkeyRegistrationRequestSchema,
    response: {
      201: z.object({ passkey: passkeySchema, recovery_codes: z.array(z.string()).nullable(), valid_return_url: z.string().nullish() }),
      ...problems(400, 401, 403, 409),
    },
    handler: async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      const enrollee = await enrolleeOf(secondStep, request);
      return reply.code(201).send(await withSession(secondStep, request, reply, await passkeys.register(enrollee, request.body)));
    },
  });
};

/** The answer of a factor kept: a sign-in that had to enrol starts its session here, and learns where it returns to. */
async function withSession<A extends { session: ProvenSession | null }>(
  secondStep: SecondStep,
  request: FastifyRequest,
  reply: FastifyReply,
  { session, ...answer }: A,
): Promise<Omit<A, 'session'> & { valid_return_url?: string | null }> {
  if (!session) return answer;
  return { ...answer, valid_return_url: (await startProvenSession(secondStep, request, reply, session)).valid_return_url };
}
