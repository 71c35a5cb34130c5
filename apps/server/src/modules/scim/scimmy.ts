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

// ---- what the portal keeps ------------------------------------------------------------------------

/**
 * The attributes of the core User schema the portal keeps (lower case), with the sub-attributes it
 * keeps of the complex ones; besides them the common id, externalId and meta, and the organization
 * extension. The User schema is cut down to these (below), so that /Schemas and /ResourceTypes
 * describe exactly what is kept (docs/integrations.md, "What a User is in the portal"): displayName
 * and name.formatted are not advertised, nor is anything the portal would answer 200 and drop.
 */
const KEPT: ReadonlyMap<string, readonly string[] | null> = new Map([
  ['username', null],
  ['name', ['givenname', 'familyname']],
  ['preferredlanguage', null],
  ['active', null],
  ['emails', ['value', 'type', 'primary']],
]);

/** What the kept attributes mean in the portal, as /Schemas describes them. */
const DESCRIPTIONS: Readonly<Record<string, string>> = {
  username: "The member's e-mail address, unique in the whole portal; the same as the primary (else work) address of emails.",
  preferredlanguage:
    "The member's language: en, nl, de, fr, es or pt-BR. A language tag is read as the nearest of them with its primary language (de-AT is de, pt-PT is pt-BR); any other leaves the member's language as it is (en for a new member).",
  name: "The member's first (givenName) and last (familyName) name, at most 100 characters each.",
  active: 'Whether the member may sign in: false ends their access at once, true restores it.',
  emails:
    "The member's e-mail address: the portal keeps one, the primary (else work, else first) address given, and answers it as the work and primary one.",
};

const userDefinition = SCIMMY.Schemas.User.definition;
for (const attribute of [...userDefinition.attributes]) {
  if (!(attribute instanceof SCIMMY.Types.Attribute) || attribute.config.shadow) continue;
  const name = attribute.name.toLowerCase();
  const kept = KEPT.get(name);
  if (kept === undefined) {
    userDefinition.truncate(attribute);
    continue;
  }
  for (const sub of [...(attribute.subAttributes ?? [])]) if (!kept?.includes(sub.name.toLowerCase())) attribute.truncate(sub);
  // an address labelled other than "work", "home" or "other" is no reason to refuse a user: the portal keeps one address whatever its label
  for (const sub of attribute.subAttributes ?? []) if (Array.isArray(sub.config.canonicalValues)) sub.config.canonicalValues = false;
  if (DESCRIPTIONS[name]) attribute.config.description = DESCRIPTIONS[name];
}

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

const CORE_PREFIX = `${USER_SCHEMA.toLowerCase()}:`;
const ORGANIZATION_PREFIX = SCIM_ORGANIZATION_EXTENSION.toLowerCase();
/** The common attributes of every resource (RFC 7643 §3.1), and `schemas`: scimmy judges them. */
const COMMON = new Set(['id', 'externalid', 'meta', 'schemas']);
/** An attribute path without schema (RFC 7644 §3.10): an attribute, a value filter, a sub-attribute. */
const ATTRIBUTE_PATH = /^([A-Za-z][\w$-]*)(\[.*\])?(?:\.([A-Za-z][\w$-]*))?$/s;

/** A PatchOp path (or a key of a value without path, or of a resource) without the core schema's URN: RFC 7644 §3.10 lets a client name attributes in full. */
function shortPath(path: string): string {
  return path.trim().toLowerCase().startsWith(CORE_PREFIX) ? path.trim().slice(CORE_PREFIX.length) : path;
}

/**
 * Whether a path names something the portal does not keep, to be left out before scimmy sees it:
 * an attribute of the core schema or a sub-attribute it does not keep (title, roles, phoneNumbers,
 * name.middleName, an attribute it does not know), one of another schema's URN (the enterprise
 * extension, a directory's own), an e-mail address other than the work or primary one. What is
 * kept, and what is no attribute path at all, is left to scimmy to apply or refuse (invalidPath).
 */
function isIgnoredPath(path: string): boolean {
  const lower = shortPath(path).trim().toLowerCase();
  if (lower.startsWith('urn:')) return !lower.startsWith(ORGANIZATION_PREFIX);
  const match = ATTRIBUTE_PATH.exec(lower);
  if (!match) return false;
  const [, root = '', filter, sub] = match;
  if (COMMON.has(root)) return false;
  const kept = KEPT.get(root);
  if (kept === undefined) return true;
  if (sub !== undefined && kept !== null && !kept.includes(sub)) return true;
  if (root === 'emails' && filter) return !/^\[\s*(type\s+eq\s+"work"|primary\s+eq\s+(true|"true"))\s*\]$/.test(filter);
  return false;
}

/**
 * The one place where what a directory sends is made what the portal keeps, before scimmy reads
 * it: a User (POST, PUT) without the attributes the portal does not keep (isIgnoredPath) and
 * without other schemas' URNs in `schemas`, its booleans made booleans. Anything that is no object
 * is passed on unchanged, for scimmy to refuse.
 */
export function keptUser(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const entries = Object.entries(body as Record<string, unknown>)
    .map(([key, value]): [string, unknown] => [shortPath(key), value])
    .filter(([key]) => !isIgnoredPath(key))
    .map(([key, value]): [string, unknown] => [key, key.toLowerCase() === 'schemas' ? keptSchemas(value) : keptParts(key, value)]);
  return withBooleans(Object.fromEntries(entries));
}

/** The value of a kept complex attribute (name, emails) with only the sub-attributes the portal keeps: scimmy refuses others in a PatchOp's value. */
function keptParts(path: string, value: unknown): unknown {
  const root = ATTRIBUTE_PATH.exec(path.trim().toLowerCase());
  const kept = root && root[3] === undefined ? KEPT.get(root[1]!) : undefined;
  if (!kept) return value;
  const trim = (item: unknown) =>
    item !== null && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).filter(([key]) => kept.includes(key.toLowerCase())))
      : item;
  return Array.isArray(value) ? value.map(trim) : trim(value);
}

/** The URNs of `schemas` the portal knows (core User, the organization extension), when the core one is among them; else as sent, for scimmy to judge. */
function keptSchemas(schemas: unknown): unknown {
  if (!Array.isArray(schemas) || !schemas.includes(USER_SCHEMA)) return schemas;
  const known = [USER_SCHEMA.toLowerCase(), ORGANIZATION_PREFIX];
  return schemas.filter((id) => typeof id !== 'string' || known.includes(id.toLowerCase()));
}

/**
 * A PatchOp request as scimmy takes it: booleans made booleans, operations on what the portal does
 * not keep left out (isIgnoredPath: by their path, or the keys of a value without path). Null when
 * no operation is left (nothing to change). Anything that is no PatchOp at all is passed on
 * unchanged, for scimmy to refuse.
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
      if (isIgnoredPath(op.path)) continue;
      const path = shortPath(op.path);
      const last = path.split(/[.:]/).pop() ?? '';
      operations.push({ ...op, path, value: withBooleans(keptParts(path, op.value), last.replace(/\[.*$/, '')) });
    } else if (op.value !== null && typeof op.value === 'object' && !Array.isArray(op.value)) {
      const value = keptUser(op.value) as Record<string, unknown>;
      if (Object.keys(value).length) operations.push({ ...op, value });
    } else operations.push(op);
  }
  return operations.length ? { ...(message as { schemas: string[] }), Operations: operations } : null;
}

export { SCIMMY };
