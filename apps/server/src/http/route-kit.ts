import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { problemSchema } from '@partner-portal/contracts';
import type { Actor, SessionStore } from './session.js';

/**
 * What every route file needs besides its own schemas: the documented problem answers, the empty
 * answer of a 204, attachments, and who asks (`request.actor()`).
 */

/** The answer of a call that returns nothing (204). */
export const noContent = z.null().describe('No content');

/** The problem answers a route documents, by status: `response: { 200: …, ...problems(400, 401, 403) }`. */
export function problems(...statuses: number[]): Record<number, typeof problemSchema> {
  return Object.fromEntries(statuses.map((status) => [status, problemSchema]));
}

/** The problems of a call on something of the actor's subtree: bad input, no session, no right, unknown. */
export const SCOPED_PROBLEMS = [400, 401, 403, 404];
/** The problems of a change of something of the actor's subtree: those of SCOPED_PROBLEMS and a conflict. */
export const CHANGE_PROBLEMS = [...SCOPED_PROBLEMS, 409];

/**
 * A route's options with its OpenAPI description: the schema as given (tags, summary, params,
 * body, …) with the problem answers of `problemStatuses` added to its `response`.
 */
export function documented<const S extends { tags: string[]; summary: string; response: Record<number, z.ZodType> }>(
  schema: S,
  problemStatuses: number[],
): { schema: S } {
  return { schema: { ...schema, response: { ...schema.response, ...problems(...problemStatuses) } } };
}

/** Answer 204 once `work` is done. */
export async function noContentAfter(reply: FastifyReply, work: Promise<unknown>): Promise<FastifyReply> {
  await work;
  return reply.code(204).send(null);
}

/** A file answered as an attachment (an export, a report): sendDownload below. */
export interface DownloadFile {
  filename: string;
  contentType: string;
  body: Buffer | string;
}

/** Answer a file as an attachment that is never cached. */
export function sendDownload(reply: FastifyReply, file: DownloadFile): FastifyReply {
  return reply
    .header('content-type', file.contentType)
    .header('content-disposition', `attachment; filename="${file.filename}"`)
    .header('cache-control', 'no-store')
    .send(file.body);
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
