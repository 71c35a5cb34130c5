import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { problemSchema } from '@partner-portal/contracts';
import type { Actor, SessionStore } from './session.js';

/**
 * What every route file needs besides its own schemas: the documented problem answers, the empty
 * answer of a 204, and who asks (`request.actor()`).
 */

/** The answer of a call that returns nothing (204). */
export const noContent = z.null().describe('No content');

/** The problem answers a route documents, by status: `response: { 200: …, ...problems(400, 401, 403) }`. */
export function problems(...statuses: number[]): Record<number, typeof problemSchema> {
  return Object.fromEntries(statuses.map((status) => [status, problemSchema]));
}

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Who asks, for a service call: the signed-in user (401 when nobody is, 403 while a forced
     * password change is pending) with the request's id for the audit trail.
     */
    actor(): Promise<Actor>;
  }
}

/** Gives every request its `actor()`, read from the session store (http/session.ts). */
export function registerActor(app: FastifyInstance, sessions: SessionStore): void {
  app.decorateRequest('actor', async function actor(this: FastifyRequest): Promise<Actor> {
    return { user: await sessions.require(this), requestId: this.id };
  });
}
