import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { SCIM_ORGANIZATION_EXTENSION as ORGANIZATION_EXTENSION, uuidSchema } from '@partner-portal/contracts';
import { pgErrorCode } from '../../db/errors.js';
import { AppError, toAppError } from '../../http/problem.js';
import {
  errorBody,
  keptPatch,
  keptUser,
  LIST_RESPONSE_SCHEMA,
  MAX_PAGE_SIZE,
  SCIM_CONTENT_TYPE,
  readInput,
  SCIMMY,
  USER_SCHEMA,
  withUserStore,
  type ScimObject,
} from './scimmy.js';
import type { DirectoryActor } from '../../http/actor.js';
import type { ScimUsers } from './users.js';

/**
 * The SCIM 2.0 endpoints (RFC 7644) at $PUBLIC_URL/scim/v2, for dealers' directories
 * (docs/integrations.md, "SCIM 2.0"). Not under /api: no X-CSRF, no session; every request carries
 * a SCIM token as its bearer token. Bodies are application/scim+json (application/json too);
 * every error, whatever caused it, is a SCIM error message, never a problem document.
 */

export const SCIM_PREFIX = '/scim/v2';

/** Answer with a SCIM error message (RFC 7644 §3.12). */
export function sendScimError(reply: FastifyReply, status: number, scimType: string | null, detail: string): FastifyReply {
  return reply
    .code(status)
    .header('content-type', SCIM_CONTENT_TYPE)
    .send(JSON.stringify(errorBody(status, scimType, detail)));
}

function send(reply: FastifyReply, status: number, body: ScimObject): FastifyReply {
  return reply.code(status).header('content-type', SCIM_CONTENT_TYPE).send(JSON.stringify(body));
}

/** A resource as sent: with its schemas, which scimmy leaves out when `attributes` names others. */
function shown(resource: unknown): ScimObject {
  const body = JSON.parse(JSON.stringify(resource)) as ScimObject;
  return body.schemas ? body : { schemas: [USER_SCHEMA, ORGANIZATION_EXTENSION], ...body };
}

/** A single resource with its ETag (meta.version). */
function sendResource(reply: FastifyReply, status: number, resource: unknown): FastifyReply {
  const body = shown(resource) as ScimObject & { meta?: { version?: string; location?: string } };
  if (body.meta?.version) void reply.header('etag', body.meta.version);
  if (status === 201 && body.meta?.location) void reply.header('location', body.meta.location);
  return send(reply, status, body);
}

/** What an error of any kind is answered with: SCIM's own, else the problem the portal would answer, as a SCIM error. */
function answerError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof SCIMMY.Types.Error) return sendScimError(reply, error.status, error.scimType ?? null, error.message);
  const code = (error as { code?: string }).code;
  if (code === 'FST_ERR_CTP_INVALID_JSON_BODY' || code === 'FST_ERR_CTP_EMPTY_JSON_BODY')
    return sendScimError(reply, 400, 'invalidSyntax', 'The request body is not valid JSON');
  if (pgErrorCode(error) === '23505') return sendScimError(reply, 409, 'uniqueness', 'Another account has this userName');
  const problem = toAppError(error, request);
  if (problem.headers) void reply.headers(problem.headers);
  const detail = problem.detail ?? problem.message;
  return sendScimError(reply, problem.status, problem.status === 400 ? 'invalidValue' : null, detail);
}

/** The page a list asks for: startIndex from 1, count from 0 to MAX_PAGE_SIZE (RFC 7644 §3.4.2.4). */
function pageOf(query: Record<string, unknown>): { startIndex: number; count: number } {
  const number = (name: string, fallback: number) => {
    const value = query[name];
    if (value === undefined || value === '') return fallback;
    if (typeof value !== 'string' || !/^-?\d{1,9}$/.test(value.trim()))
      throw scimErrorOf(400, 'invalidValue', `${name} must be an integer`);
    return Number(value);
  };
  return { startIndex: Math.max(1, number('startIndex', 1)), count: Math.min(MAX_PAGE_SIZE, Math.max(0, number('count', 100))) };
}

const scimErrorOf = (status: number, scimType: string | null, detail: string) => new SCIMMY.Types.Error(status, scimType as never, detail);

/** A filter that ends in a logical operator (`userName eq "a" and`): scimmy's parser drops it, so it is refused here. */
const DANGLING_OPERATOR = /(?:^|[\s)])(?:and|or|not)\s*$/i;

/** The query parameters scimmy reads (filter, attributes, excludedAttributes), each only when given once as text. */
function resourceParams(query: Record<string, unknown>): { filter?: string; attributes?: string; excludedAttributes?: string } {
  const params: Record<string, string> = {};
  for (const name of ['filter', 'attributes', 'excludedAttributes']) {
    const value = query[name];
    if (value === undefined) continue;
    if (typeof value !== 'string')
      throw scimErrorOf(400, name === 'filter' ? 'invalidFilter' : 'invalidValue', `${name} must be given once`);
    if (name === 'filter' && DANGLING_OPERATOR.test(value))
      throw scimErrorOf(400, 'invalidFilter', 'The filter ends in a logical operator');
    params[name] = value;
  }
  return params;
}

/** The User resource of a request: its id (when any), filter and attributes as scimmy reads them (400 invalidFilter when it cannot). */
function userResource(id: string | undefined, query: unknown): SCIMMY.Resources.User {
  const params = resourceParams(query as Record<string, unknown>);
  return readInput('invalidFilter', () => new SCIMMY.Resources.User(id, params));
}

/** A schema or resource type by its id: what scimmy cannot find, or cannot even read as an id, is none (404). */
async function discovered<T>(id: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch {
    throw scimErrorOf(404, null, `${id} not found`);
  }
}

/** The member id of a path: a UUID, else no resource (404). */
function memberId(request: FastifyRequest): string {
  const { id } = request.params as { id: string };
  if (!uuidSchema.safeParse(id).success) throw scimErrorOf(404, null, `Resource ${id} not found`);
  return id;
}

/** A discovery resource with its location at this portal (scimmy leaves it relative). */
function locatedOne(resource: unknown, base: string): ScimObject {
  const body = JSON.parse(JSON.stringify(resource)) as ScimObject & { id?: string; meta?: Record<string, unknown> };
  body.meta = { ...body.meta, location: `${base}/${body.id ?? ''}` };
  return body;
}

/** A list of discovery resources, each with its location. */
function located(list: unknown, base: string): ScimObject {
  const body = JSON.parse(JSON.stringify(list)) as ScimObject & { Resources: unknown[] };
  return { ...body, Resources: body.Resources.map((resource) => locatedOne(resource, base)) };
}

/**
 * The directory that asks: the request's actor (http/credentials.ts finds it from the SCIM token,
 * once per request), which on these endpoints is a directory or nobody (401).
 */
async function actorOf(request: FastifyRequest): Promise<DirectoryActor> {
  const actor = await request.actor().catch((err: unknown) => {
    // nobody (no or no such token) is 401; a lookup that failed is the error it is
    if (err instanceof AppError && err.status === 401) return null;
    throw err;
  });
  if (actor?.kind !== 'directory') throw unauthorized();
  return actor;
}

const unauthorized = () => scimErrorOf(401, null, 'A valid SCIM token is required as the bearer token');

export const scimRoutes: FastifyPluginAsync<{ scimUsers: ScimUsers }> = async (app, { scimUsers }) => {
  const base = `${app.services.config.publicUrl}${SCIM_PREFIX}`;

  // SCIM's media type and JSON, nothing else (415)
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('application/scim+json', { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));
  app.setErrorHandler((error, request, reply) => answerError(error, request, reply));
  app.setNotFoundHandler((request, reply) =>
    sendScimError(reply, 404, null, `No SCIM endpoint at ${request.method} ${request.url.split('?')[0]}`),
  );

  // every endpoint needs a token of a directory (the discovery ones too)
  app.addHook('preHandler', async (request, reply) => {
    try {
      await actorOf(request);
    } catch (err) {
      if (!(err instanceof SCIMMY.Types.Error) || err.status !== 401) throw err;
      void reply.header('www-authenticate', 'Bearer realm="scim"');
      return sendScimError(reply, 401, null, err.message);
    }
  });

  const hidden = { schema: { hide: true } };

  app.get('/ServiceProviderConfig', hidden, async (_request, reply) => {
    const config = JSON.parse(JSON.stringify(await new SCIMMY.Resources.ServiceProviderConfig().read())) as ScimObject;
    return send(reply, 200, { ...config, meta: { resourceType: 'ServiceProviderConfig', location: `${base}/ServiceProviderConfig` } });
  });

  app.get('/ResourceTypes', hidden, async (_request, reply) =>
    send(reply, 200, located(await new SCIMMY.Resources.ResourceType().read(), `${base}/ResourceTypes`)),
  );
  app.get('/ResourceTypes/:id', hidden, async (request, reply) => {
    const { id } = request.params as { id: string };
    const type = await discovered(id, () => new SCIMMY.Resources.ResourceType(id).read());
    return send(reply, 200, locatedOne(type, `${base}/ResourceTypes`));
  });

  app.get('/Schemas', hidden, async (_request, reply) =>
    send(reply, 200, located(await new SCIMMY.Resources.Schema().read(), `${base}/Schemas`)),
  );
  app.get('/Schemas/:id', hidden, async (request, reply) => {
    const { id } = request.params as { id: string };
    const schema = await discovered(id, () => new SCIMMY.Resources.Schema(id).read());
    return send(reply, 200, locatedOne(schema, `${base}/Schemas`));
  });

  app.get('/Users', hidden, async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const page = pageOf(query);
    const resource = userResource(undefined, query);
    const { total, resources } = await scimUsers.list(await actorOf(request), { filter: resource.filter, ...page });
    const users = readInput('invalidFilter', () =>
      resources.map((user) => shown(new SCIMMY.Schemas.User(user, 'out', undefined, resource.attributes))),
    );
    return send(reply, 200, {
      schemas: [LIST_RESPONSE_SCHEMA],
      totalResults: total,
      startIndex: page.startIndex,
      itemsPerPage: users.length,
      Resources: users,
    });
  });

  app.get('/Users/:id', hidden, async (request, reply) => {
    const resource = userResource(memberId(request), request.query);
    const user = await scimUsers.read(await actorOf(request), (store) => withUserStore(store, (ctx) => resource.read(ctx)));
    return sendResource(reply, 200, user);
  });

  app.post('/Users', hidden, async (request, reply) => {
    const resource = userResource(undefined, request.query);
    const body = keptUser(request.body);
    const user = await scimUsers.change(await actorOf(request), null, (store) => withUserStore(store, (ctx) => resource.write(body, ctx)));
    return sendResource(reply, 201, user);
  });

  app.put('/Users/:id', hidden, async (request, reply) => {
    const id = memberId(request);
    const resource = userResource(id, request.query);
    const body = keptUser(request.body);
    const user = await scimUsers.change(await actorOf(request), ifMatchOf(request, id), (store) =>
      withUserStore(store, (ctx) => resource.write(body, ctx)),
    );
    return sendResource(reply, 200, user);
  });

  app.patch('/Users/:id', hidden, async (request, reply) => {
    const id = memberId(request);
    const resource = userResource(id, request.query);
    const message = keptPatch(request.body);
    const user = await scimUsers.change(await actorOf(request), ifMatchOf(request, id), (store) =>
      withUserStore(store, async (ctx) => (message && (await resource.patch(message as never, ctx))) || resource.read(ctx)),
    );
    return sendResource(reply, 200, user);
  });

  app.delete('/Users/:id', hidden, async (request, reply) => {
    const id = memberId(request);
    await scimUsers.change(await actorOf(request), ifMatchOf(request, id), (store) =>
      withUserStore(store, (ctx) => new SCIMMY.Resources.User(id).dispose(ctx)),
    );
    return reply.code(204).send();
  });
};

/** The If-Match precondition of a change, when the request has one. */
function ifMatchOf(request: FastifyRequest, id: string): { id: string; tag: string } | null {
  const tag = request.headers['if-match'];
  return typeof tag === 'string' && tag.trim() ? { id, tag: tag.trim() } : null;
}

/** Register the SCIM endpoints under their prefix (app.ts). */
export async function registerScim(app: FastifyInstance, options: { scimUsers: ScimUsers }): Promise<void> {
  await app.register(scimRoutes, { ...options, prefix: SCIM_PREFIX });
}
