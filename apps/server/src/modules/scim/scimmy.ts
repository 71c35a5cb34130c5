import SCIMMY from 'scimmy';
import { SCIM_ORGANIZATION_EXTENSION } from '@partner-portal/contracts';

/**
 * The portal's use of scimmy (RFC 7643 schemas, filters, PatchOp, list and error messages). scimmy
 * keeps its configuration, schemas and resource handlers in process-wide singletons, while an app
 * is built per test (and per instance): so it is set up here once, and the User resource's handlers
 * only pass each call on to the store the request hands in as scimmy's `ctx` (withUserStore).
 * scimmy's own routers need Express; the Fastify routes are routes.ts.
 */

export const SCIM_CONTENT_TYPE = 'application/scim+json; charset=utf-8';
export const USER_SCHEMA = SCIMMY.Schemas.User.id;
export const PATCH_OP_SCHEMA = SCIMMY.Messages.PatchOp.id;
export const LIST_RESPONSE_SCHEMA = SCIMMY.Messages.ListResponse.id;
const ENTERPRISE_USER_SCHEMA = SCIMMY.Schemas.EnterpriseUser.id;

/** The most members one list answer holds (filter.maxResults); a larger `count` is cut to it. */
export const MAX_PAGE_SIZE = 200;

/**
 * The organization extension (the operating contract's URN). scimmy's SchemaDefinition accepts only
 * ids below urn:ietf:params:scim:schemas:, so it is made below one and given the portal's id right
 * after: scimmy reads the id as a plain property everywhere else (extension values, PatchOp paths,
 * the Schemas and ResourceTypes answers).
 */
const organizationExtension = new SCIMMY.Types.SchemaDefinition(
  'Organization',
  'urn:ietf:params:scim:schemas:extension:partner-portal:User',
  'The organization of the portal whose member the user is',
  [
    new SCIMMY.Types.Attribute('string', 'organizationId', {
      caseExact: true,
      description:
        "The id of the user's organization: the token's organization or one of its sub-organizations. Default: the token's organization.",
    }),
  ],
);
organizationExtension.id = SCIM_ORGANIZATION_EXTENSION;

SCIMMY.Config.set({
  patch: true,
  filter: { supported: true, maxResults: MAX_PAGE_SIZE },
  etag: true,
  sort: false,
  bulk: false,
  changePassword: false,
  authenticationSchemes: [
    {
      type: 'oauthbearertoken',
      name: 'Bearer token',
      description:
        "A SCIM token of the organization (POST /api/organizations/{organizationId}/scim-tokens), as 'Authorization: Bearer <token>'.",
      specUri: 'https://www.rfc-editor.org/rfc/rfc6750',
    },
  ],
});

/** A user resource as the store gives it: the attributes of the core schema and the extensions. */
export type ScimObject = Record<string, unknown>;

/** What the User resource's handlers call: the request's view of the members of a token's subtree. */
export interface UserStore {
  read(id: string): Promise<ScimObject>;
  /** create (no id) or replace a user with a coerced inbound resource */
  write(id: string | undefined, instance: SCIMMY.Schemas.User): Promise<ScimObject>;
  remove(id: string): Promise<void>;
}

interface HandlerContext {
  store: UserStore;
  /** an error that is no SCIM error, thrown on by withUserStore (scimmy would answer it as a 404) */
  failure?: unknown;
}

async function guarded<T>(ctx: unknown, work: (store: UserStore) => Promise<T>): Promise<T> {
  const context = ctx as HandlerContext;
  try {
    return await work(context.store);
  } catch (err) {
    if (err instanceof SCIMMY.Types.Error) throw err;
    context.failure = err;
    throw scimError(500, null, 'The request could not be completed');
  }
}

SCIMMY.Resources.declare(SCIMMY.Resources.User)
  .ingress((resource, instance, ctx) => guarded(ctx, (store) => store.write(resource.id, instance)) as never)
  .egress((resource, ctx) => guarded(ctx, (store) => store.read(resource.id!)) as never)
  .degress((resource, ctx) => guarded(ctx, (store) => store.remove(resource.id!)));
SCIMMY.Resources.User.extend(organizationExtension as unknown as typeof SCIMMY.Types.Schema, false);
// accepted so that a directory's enterprise attributes (department, manager…) do not fail its
// requests; the portal keeps none of them
SCIMMY.Resources.User.extend(SCIMMY.Schemas.EnterpriseUser, false);

/**
 * Run calls of the User resource (read, write, patch, dispose) against a store. An error of the
 * store that is no SCIM error is thrown as it was (so that the route answers it as what it is); a
 * TypeError of scimmy's own is its refusal of the input (400 invalidValue).
 */
export async function withUserStore<T>(store: UserStore, call: (ctx: HandlerContext) => Promise<T>): Promise<T> {
  const ctx: HandlerContext = { store };
  try {
    return await call(ctx);
  } catch (err) {
    if (ctx.failure !== undefined) throw ctx.failure;
    if (err instanceof TypeError) throw scimError(400, 'invalidValue', err.message);
    throw err;
  }
}

/**
 * Something scimmy reads from a request (a filter, attributes, a resource to show with them): its
 * TypeErrors are refusals of the input (400 with `scimType`), as its SCIM errors are.
 */
export function readInput<T>(scimType: 'invalidFilter' | 'invalidValue', read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof TypeError) throw scimError(400, scimType, err.message);
    throw err;
  }
}

/** A SCIM error to throw (RFC 7644 §3.12): the status, the detail keyword (scimType) where one applies, a readable detail. */
export function scimError(status: number, scimType: string | null, detail: string): SCIMMY.Types.SCIMError {
  return new SCIMMY.Types.Error(status, scimType as never, detail);
}

/** The body of a SCIM error answer: `status` as a string, as RFC 7644 wants it. */
export function errorBody(status: number, scimType: string | null | undefined, detail: string): Record<string, unknown> {
  try {
    return { ...new SCIMMY.Messages.Error({ status, scimType: scimType ?? undefined, detail } as never) };
  } catch {
    // a status scimmy's message does not know (503 while the database is away)
    return { schemas: [SCIMMY.Messages.Error.id], status: String(status), ...(scimType ? { scimType } : {}), detail };
  }
}

// ---- what directories send ------------------------------------------------------------------------

const BOOLEAN_ATTRIBUTES = new Set(['active', 'primary']);

/**
 * A payload with the booleans `active` and `primary` as booleans where a directory sends them as
 * strings (Microsoft Entra ID sends "True" and "False").
 */
export function withBooleans(value: unknown, key?: string, depth = 0): unknown {
  if (typeof value === 'string' && key !== undefined && BOOLEAN_ATTRIBUTES.has(key.toLowerCase())) {
    const text = value.trim().toLowerCase();
    return text === 'true' ? true : text === 'false' ? false : value;
  }
  // a User's booleans sit at most three levels down (emails[].primary, an extension's attribute)
  if (depth > 4) return value;
  if (Array.isArray(value)) return value.map((item) => withBooleans(item, key, depth + 1));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, withBooleans(item, name, depth + 1)]));
  return value;
}

/**
 * Core attributes the portal does not keep (lower case): accepted and ignored. It keeps userName,
 * name, emails (the work address), preferredLanguage (or locale), active and externalId;
 * displayName and name.formatted it makes from the names.
 */
const IGNORED = new Set(
  ['nickName', 'profileUrl', 'title', 'userType', 'timezone', 'password', 'phoneNumbers', 'ims', 'photos', 'addresses', 'groups']
    .concat(['entitlements', 'roles', 'x509Certificates'])
    .map((name) => name.toLowerCase()),
);
const CORE_PREFIX = `${USER_SCHEMA.toLowerCase()}:`;

/** A PatchOp path (or a key of a value without path) without the core schema's URN: RFC 7644 §3.10 lets a client name attributes in full. */
function shortPath(path: string): string {
  return path.trim().toLowerCase().startsWith(CORE_PREFIX) ? path.trim().slice(CORE_PREFIX.length) : path;
}

/**
 * Whether a PatchOp path (or a key of a value without path) names something the portal keeps. Paths
 * of attributes it ignores (phone numbers, addresses, the enterprise extension, an e-mail address
 * other than the work one) are left out, so that a directory's full mapping does not fail; unknown
 * paths stay, for scimmy to refuse (invalidPath).
 */
function isKeptPath(path: string): boolean {
  let lower = path.trim().toLowerCase();
  if (lower.startsWith(CORE_PREFIX)) lower = lower.slice(CORE_PREFIX.length);
  if (lower.startsWith(ENTERPRISE_USER_SCHEMA.toLowerCase())) return false;
  if (lower.startsWith('urn:')) return true;
  const root = /^[^.[]*/.exec(lower)?.[0] ?? lower;
  if (IGNORED.has(root)) return false;
  if (root === 'emails' && lower.includes('[')) return /^emails\[\s*(type\s+eq\s+"work"|primary\s+eq\s+(true|"true"))\s*\]/.test(lower);
  return true;
}

/**
 * A PatchOp request as scimmy takes it: booleans made booleans, operations on what the portal does
 * not keep left out. Null when no operation is left (nothing to change). Anything that is no
 * PatchOp at all is passed on unchanged, for scimmy to refuse.
 */
export function keptPatch(body: unknown): { schemas: string[]; Operations: Record<string, unknown>[] } | null {
  if (body === null || typeof body !== 'object' || !Array.isArray((body as { Operations?: unknown }).Operations)) return body as never;
  const message = body as { schemas?: unknown; Operations: unknown[] };
  if (message.Operations.length === 0) return message as never;
  const operations: Record<string, unknown>[] = [];
  for (const operation of message.Operations) {
    if (operation === null || typeof operation !== 'object' || Array.isArray(operation)) return message as never;
    const op = operation as Record<string, unknown>;
    if (typeof op.path === 'string') {
      const path = shortPath(op.path);
      if (!isKeptPath(path)) continue;
      const last = path.split(/[.:]/).pop() ?? '';
      operations.push({ ...op, path, value: withBooleans(op.value, last.replace(/\[.*$/, '')) });
    } else if (op.value !== null && typeof op.value === 'object' && !Array.isArray(op.value)) {
      const named = Object.fromEntries(Object.entries(op.value).map(([key, item]) => [shortPath(key), item as unknown]));
      const value = Object.fromEntries(Object.entries(withBooleans(named) as Record<string, unknown>).filter(([key]) => isKeptPath(key)));
      if (Object.keys(value).length) operations.push({ ...op, value });
    } else operations.push(op);
  }
  return operations.length ? { ...(message as { schemas: string[] }), Operations: operations } : null;
}

export { SCIMMY };
