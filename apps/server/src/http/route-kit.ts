import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { problemSchema } from '@partner-portal/contracts';
import type { Actor } from './actor.js';

/**
 * What every route file needs besides its own schemas: the documented problem answers, the empty
 * answer of a 204, attachments, who asks (`request.actor()`), and actorRoutes, which declares a
 * route answered by one service call of the actor in one place.
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

/**
 * The config of a route answered through request.actor(): a service account may call it
 * (http/bearer.ts), unless the route is one of PEOPLE_ONLY below. actorRoutes sets it; a route
 * written by hand that acts for the actor adds it.
 */
export const ACTOR_ROUTE = { actor: true } as const;

/**
 * What only people do, every route and method below an organization's
 * `/api/organizations/:organizationId/<family>` (the operating contract, "Service accounts",
 * "Verified domains", "Single sign-on per organization"; docs/integrations.md, "Service accounts"):
 * how people sign in — single sign-on connections, verified domains (which route addresses to a
 * connection), the second-factor policy, the connection policy and setup links — and the
 * credentials that would outlive a service account — SCIM tokens and service accounts. A service
 * account's request to one of them is refused with
 * 403 service_account_not_allowed before anything else is done (http/bearer.ts, serviceAccountMayCall),
 * reads included, however the module declares the route.
 */
export const PEOPLE_ONLY = [
  'sso-connections',
  'domains',
  'second-factor-policy',
  'scim-tokens',
  'service-accounts',
  'connection-policy',
  'setup-links',
] as const;

/**
 * A member's second factors are how they sign in too: resetting them is a person's work
 * (`DELETE /api/members/{memberId}/second-factors`), like the second-factor policy.
 */
const PEOPLE_ONLY_ROUTE = new RegExp(`^/api/organizations/:[^/]+/(?:${PEOPLE_ONLY.join('|')})(?:/|$)|^/api/members/:[^/]+/second-factors$`);

/** Whether a service account may call the route (its options as Fastify holds them): one answered through request.actor() that is not PEOPLE_ONLY. */
export function serviceAccountMayCall(route: { url?: string | undefined; config: { actor?: boolean } }): boolean {
  return route.config.actor === true && !PEOPLE_ONLY_ROUTE.test(route.url ?? '');
}

/**
 * What a support session never does (docs/security.md, "Support sessions"): change how the member
 * signs in or who is signed in as them — their password, second factors (authenticator app,
 * passkeys, recovery codes), sessions — or make a credential — single sign-on connections, SCIM
 * tokens, service accounts, webhooks, setup links, audit streams — or start another support
 * session. Such a route is refused with 403 not_during_support_session before anything else is
 * done (http/credentials.ts), reads of its family excepted. A new route joins either by its family
 * here (an organization's `/api/organizations/:organizationId/<family>`, every method but GET) or
 * by its own flag: `config: { credentialChange: true }`.
 */
export const NOT_DURING_SUPPORT = [
  'sso-connections',
  'scim-tokens',
  'service-accounts',
  'webhooks',
  'setup-links',
  'audit-streams',
] as const;

/** The member's own sign-in and sessions, and support sessions, by route (every method but GET). */
const NOT_DURING_SUPPORT_ROUTE = new RegExp(
  [
    `^/api/organizations/:[^/]+/(?:${NOT_DURING_SUPPORT.join('|')})(?:/|$)`,
    '^/api/identity/change-password$',
    '^/api/identity/sessions(?:/|$)',
    '^/api/factors(?:/|$)',
    '^/api/members/:[^/]+/(?:second-factors|support-sessions)$',
  ].join('|'),
);

/** Whether a route is refused during a support session (NOT_DURING_SUPPORT, or flagged `credentialChange`). */
export function refusedDuringSupport(method: string, route: { url?: string | undefined; config: { credentialChange?: boolean } }): boolean {
  if (route.config.credentialChange === true) return true;
  return method !== 'GET' && method !== 'HEAD' && NOT_DURING_SUPPORT_ROUTE.test(route.url ?? '');
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** the route makes a credential or changes how someone signs in: refused during a support session (refusedDuringSupport) */
    credentialChange?: boolean;
  }
}

/**
 * What a setup link's session reaches (the operating contract, "Setup links for a dealer's IT
 * person"; modules/setup-links): the routes a manager would call for the link's capabilities, by
 * their family below an organization (`/api/organizations/:organizationId/<family>`) — verified
 * domains, single sign-on connections, SCIM tokens, audit streams — and only those answered through
 * request.actor(), where scope/ and every rule of the module apply to it as to any actor. Every
 * other /api route refuses it with 403 setup_link_not_allowed (http/credentials.ts).
 */
export const SETUP_LINK_FAMILIES: Readonly<Record<string, string>> = {
  domains: 'domains',
  'sso-connections': 'sso',
  'scim-tokens': 'scim',
  'audit-streams': 'audit_streams',
};

const ORGANIZATION_FAMILY = /^\/api\/organizations\/:[^/]+\/([^/]+)(?:\/|$)/;

/** Whether a setup link with these capabilities may call the route (its options as Fastify holds them). */
export function setupLinkMayCall(
  route: { url?: string | undefined; config: { actor?: boolean } },
  capabilities: readonly string[],
): boolean {
  if (route.config.actor !== true) return false;
  const family = ORGANIZATION_FAMILY.exec(route.url ?? '')?.[1];
  const capability = family === undefined ? undefined : SETUP_LINK_FAMILIES[family];
  return capability !== undefined && capabilities.includes(capability);
}

/**
 * The public reads the web app makes on every page, the setup page included (the portal's
 * configuration, the sign-in context), and the two navigations of a connection's test sign-in
 * (modules/identity/external-login-routes.ts: a setup link's session may test its connections;
 * for anything else they answer it as anybody).
 */
const SETUP_PAGE_PUBLIC = new Set([
  '/api/portal/configuration',
  '/api/identity/context',
  '/api/identity/challenge-external-login',
  '/api/identity/login-external-callback',
]);

/**
 * The setup page's own calls (`/api/setup/{token}…`, modules/setup-links/routes.ts) and the web
 * app's public reads (SETUP_PAGE_PUBLIC): whoever opens a link, as anybody would.
 */
export function isSetupPageRoute(url: string | undefined): boolean {
  return url !== undefined && (url.startsWith('/api/setup/') || SETUP_PAGE_PUBLIC.has(url));
}

/** The app a route plugin gets (FastifyPluginAsyncZod): its schemas are zod, its requests typed by them. */
export type RouteApp = Parameters<FastifyPluginAsyncZod>[0];

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What the service call of an actorRoutes route gets besides the actor: the request's params, query and body, parsed. */
export interface RouteInput<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> {
  params: z.output<P>;
  query: z.output<Q>;
  body: z.output<B>;
}

/** What a route's service call gives back: a file where the route produces one, what the success answer declares, or nothing (204). */
type Answer<R, Files> = Files extends string[]
  ? DownloadFile
  : R extends { 200: infer T extends z.ZodType }
    ? z.output<T>
    : R extends { 201: infer T extends z.ZodType }
      ? z.output<T>
      : unknown;

/** A route of actorRoutes below: its OpenAPI description and validation (without its tags) and its service call. */
export interface ActorRoute<
  P extends z.ZodType,
  Q extends z.ZodType,
  B extends z.ZodType,
  R extends Record<number, z.ZodType>,
  Files extends string[] | undefined,
> {
  summary: string;
  description?: string;
  params?: P;
  querystring?: Q;
  body?: B;
  /** The media types of a file answered as an attachment (an export, a report). */
  produces?: Files;
  /** One success answer: 204 (noContent), 201 or 200. */
  response: R;
  /** The documented problems; by default SCOPED_PROBLEMS for a GET (a read has no conflict), CHANGE_PROBLEMS otherwise. */
  problems?: number[];
  /** The service call, made by the actor who asks. */
  answer: (actor: Actor, input: RouteInput<P, Q, B>) => Promise<Answer<R, Files>>;
}

/**
 * Routes answered by one service call made by the actor (`request.actor()`), with the module's
 * tags: `const route = actorRoutes(app, ['members'])`, then
 * `route('GET /api/members/rights/:memberId', { summary, params, response: { 200: … }, answer: (actor, { params }) => … })`.
 * The success answer the schema declares says how the call is answered: 204 once it is done, 201
 * or 200 with what it gives back, or, where the route `produces` files, the file as an attachment
 * (sendDownload). The OpenAPI description is the schema with the tags first and the problems added (documented).
 */
export function actorRoutes(app: RouteApp, tags: string[]) {
  return function route<
    R extends Record<number, z.ZodType>,
    P extends z.ZodType = z.ZodType,
    Q extends z.ZodType = z.ZodType,
    B extends z.ZodType = z.ZodType,
    Files extends string[] | undefined = undefined,
  >(endpoint: `${Method} /api/${string}`, spec: ActorRoute<P, Q, B, R, Files>): void {
    const [method, url] = endpoint.split(' ') as [Method, string];
    const { answer, problems: problemStatuses, ...schema } = spec;
    const success = Number(Object.keys(schema.response).find((status) => status.startsWith('2')));
    const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
      const input = { params: request.params, query: request.query, body: request.body } as RouteInput<P, Q, B>;
      const work = answer(await request.actor(), input);
      if (success === 204) return noContentAfter(reply, work);
      if (schema.produces) return sendDownload(reply, (await work) as DownloadFile);
      return reply.code(success).send(await work);
    };
    const { schema: described } = documented(
      { tags, ...schema },
      problemStatuses ?? (method === 'GET' ? SCOPED_PROBLEMS : CHANGE_PROBLEMS),
    );
    const options: RouteOptions = { method, url, schema: described, handler, config: ACTOR_ROUTE };
    app.route(options);
  };
}

/** The request a route of `routes` gets: its params, query and body as its schemas parse them. */
export type RouteRequest<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> = FastifyRequest<{
  Params: z.output<P>;
  Querystring: z.output<Q>;
  Body: z.output<B>;
}>;

/**
 * A route of `routes` below: its OpenAPI description and validation (without its tags), every
 * status it answers, and its handler, which makes the answer itself.
 */
export interface KitRoute<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> {
  summary: string;
  description?: string;
  params?: P;
  querystring?: Q;
  body?: B;
  /** the media types of the body where it is not JSON (SCIM's application/scim+json, a form) */
  consumes?: string[];
  /** the media types of the answer where it is not JSON (an HTML page, a file) */
  produces?: string[];
  /** left out of the OpenAPI document (a navigation of the browser, not a call) */
  hide?: boolean;
  /** its answers other than the problems, by status: a body's schema, noContent, or a redirect's (redirect below) */
  response: Record<number, z.ZodType>;
  /** the problems it answers (problems(), e.g. SCOPED_PROBLEMS); none by default */
  problems?: number[];
  /** the route's config: `{ credentialChange: true }` (refusedDuringSupport), ACTOR_ROUTE where it acts through request.actor() */
  config?: RouteOptions['config'];
  /** how its answers are serialized, where not by their schemas (an answer built field by field, sent as plain JSON) */
  serializerCompiler?: RouteOptions['serializerCompiler'];
  /** the answer: what the handler returns is sent with the success status (or its own reply) */
  handler: (request: RouteRequest<P, Q, B>, reply: FastifyReply) => Promise<unknown>;
}

/** The answer of a redirect (302, 303): no body, its target in Location. */
export const redirect = z.null().describe('Redirect (Location)');

/**
 * Routes whose handler makes the answer itself (cookies, redirects, HTML, SCIM's media type, a
 * route without an actor), with the module's tags and every status they answer declared in one
 * place: `const route = routes(app, ['identity'])`, then
 * `route('POST /api/identity/login', { summary, body, response: { 200: … }, problems: [400, 409], handler: async (request, reply) => … })`.
 * The OpenAPI description is the schema with the tags first and the problems added (documented),
 * as actorRoutes makes it; the answers are checked against it outside production (declared-statuses.ts).
 */
export function routes(app: RouteApp, tags: string[]) {
  return function route<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType>(
    endpoint: `${Method} /${string}`,
    spec: KitRoute<P, Q, B>,
  ): void {
    const [method, url] = endpoint.split(' ') as [Method, string];
    const { handler, problems: problemStatuses, config, serializerCompiler, ...schema } = spec;
    const { schema: described } = documented({ tags, ...schema }, problemStatuses ?? []);
    const options: RouteOptions = {
      method,
      url,
      schema: described,
      handler: handler as RouteOptions['handler'],
      ...(config ? { config } : {}),
      ...(serializerCompiler ? { serializerCompiler } : {}),
    };
    app.route(options);
  };
}
