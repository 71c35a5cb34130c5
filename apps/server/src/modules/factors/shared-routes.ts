import type { FastifyReply, FastifyRequest } from 'fastify';
import { loginConsentResponseSchema, type LoginConsentResponse } from '@partner-portal/contracts';
import { AppError } from '../../http/problem.js';
import type { SessionUser } from '../../http/session.js';
import { problems } from '../../http/route-kit.js';
import type { Services } from '../../services.js';
import type { Enrollee, ProvenSession, SecondStep } from './second-step.js';

/**
 * The route bits the factors' route files share, and the password step's too
 * (identity/login-routes.ts): the sign-in's cookies, who sets up a factor, and the start of the
 * session a completed sign-in has proven.
 */

/** The OpenAPI tag of the factors' routes. */
export const tags = ['second factors'];

/** The answers of a sign-in step that completes the sign-in: where it returns to, or why not (a wrong guess, an expired step, too many guesses). */
export const signInAnswer = { 200: loginConsentResponseSchema, ...problems(400, 409, 429) };

/** The cookie of a sign-in waiting for its second step (no session exists yet). */
export const SECOND_STEP_COOKIE = 'pp_second_step';
/** The cookie that finds the challenge of a passkey sign-in again. */
export const PASSKEY_COOKIE = 'pp_passkey';
type SignInCookie = typeof SECOND_STEP_COOKIE | typeof PASSKEY_COOKIE;

/** The sign-in cookies' attributes: sent to the API only, never to scripts. */
function signInCookieOptions(services: Services) {
  return { path: '/api', httpOnly: true, sameSite: 'lax' as const, secure: services.config.isHttps };
}

export function setSignInCookie(reply: FastifyReply, name: SignInCookie, value: string, maxAgeSeconds: number): void {
  void reply.setCookie(name, value, { ...signInCookieOptions(reply.server.services), maxAge: maxAgeSeconds });
}

export function clearSignInCookie(reply: FastifyReply, name: SignInCookie): void {
  void reply.clearCookie(name, signInCookieOptions(reply.server.services));
}

/** The signed-in user, or a sign-in that has to enrol a factor before its session starts. */
export async function enrolleeOf(secondStep: SecondStep, request: FastifyRequest): Promise<Enrollee> {
  const enrolling = await secondStep.enrollingSignIn(request.cookies[SECOND_STEP_COOKIE]);
  if (enrolling) return enrolling;
  const user = await request.server.services.sessions.current(request);
  if (!user) throw new AppError('unauthorized');
  // accounts of the external identity provider use the factors of that provider
  if (user.externalIdentityProvider) throw new AppError('external_identity_user');
  return { kind: 'session', userId: user.id, email: user.email, sessionIdHash: user.sessionIdHash };
}

/** Start the session of a completed sign-in (ending its second step's cookie) and answer where it returns to. */
export async function startProvenSession(
  secondStep: SecondStep,
  request: FastifyRequest,
  reply: FastifyReply,
  session: ProvenSession,
): Promise<LoginConsentResponse> {
  if (session.clearSecondStepCookie) clearSignInCookie(reply, SECOND_STEP_COOKIE);
  const secret = await request.server.services.sessions.start(request, reply, session.userId, session.persistent);
  await secondStep.recordSessionAuthentication(secret, session.amr);
  return { error: null, valid_return_url: session.returnTo, external_login: null, next_step: null };
}

/** A change the signed-in user makes to their factors, answered 204 once done. */
export async function changedBy(
  request: FastifyRequest,
  reply: FastifyReply,
  change: (user: SessionUser) => Promise<void>,
): Promise<FastifyReply> {
  await change(await request.server.services.sessions.require(request));
  return reply.code(204).send(null);
}
