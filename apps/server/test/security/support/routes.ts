import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';

/**
 * The route table of the running portal. Read from Fastify's own router (printRoutes), so that a
 * route hidden from the OpenAPI document is still found, and joined with the OpenAPI document for
 * the schemas. Paths are written the OpenAPI way: /api/organizations/{organizationId}.
 */
export interface ApiRoute {
  method: string;
  path: string;
  /** "METHOD /path" */
  key: string;
  params: string[];
  operation: OpenApiOperation | undefined;
}

export interface OpenApiOperation {
  parameters?: { name: string; in: 'path' | 'query' | 'header' | 'cookie'; required?: boolean; schema?: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  additionalProperties?: boolean | JsonSchema;
  default?: unknown;
  [k: string]: unknown;
};

const LINE = /^((?:│ {3}| {4})*)(?:├|└)── (.*?)(?: \(([A-Z, ]+)\))?$/;

/** Every (method, path) of the router, from printRoutes({ commonPrefix: false }). */
export function routerRoutes(app: FastifyInstance): { method: string; path: string }[] {
  const text = app.printRoutes({ commonPrefix: false });
  const stack: string[] = [];
  const out: { method: string; path: string }[] = [];
  for (const line of text.split('\n')) {
    const m = LINE.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    const path = (stack[depth - 1] ?? '') + m[2]!;
    stack[depth] = path;
    stack.length = depth + 1;
    for (const method of (m[3] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      out.push({ method, path: path.replace(/:(\w+)/g, '{$1}') });
    }
  }
  return out;
}

/** The /api routes (without HEAD, the OpenAPI document's own routes and OPTIONS). */
export async function apiRoutes(app: FastifyInstance): Promise<ApiRoute[]> {
  const answer = await app.inject({ method: 'GET', url: '/api/docs/json' });
  // without the document (it failed to build) the routes are still listed, without schemas
  const doc = answer.statusCode === 200 ? answer.json<{ paths: Record<string, Record<string, OpenApiOperation>> }>() : { paths: {} };
  const seen = new Set<string>();
  const routes: ApiRoute[] = [];
  for (const { method, path } of routerRoutes(app)) {
    if (!(path === '/api' || path.startsWith('/api/'))) continue;
    if (path.startsWith('/api/docs') || method === 'HEAD' || method === 'OPTIONS') continue;
    const key = `${method} ${path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    routes.push({
      method,
      path,
      key,
      params: [...path.matchAll(/\{(\w+)\}/g)].map((x) => x[1]!),
      operation: doc.paths[path]?.[method.toLowerCase()],
    });
  }
  return routes.sort((a, b) => a.key.localeCompare(b.key));
}

/** Put values into a path's {params}. */
export function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = values[name];
    if (v === undefined) throw new Error(`no value for path parameter ${name} of ${path}`);
    return v;
  });
}

/** The JSON schema of a route's body, if any. */
export function bodySchema(route: ApiRoute): JsonSchema | undefined {
  return route.operation?.requestBody?.content?.['application/json']?.schema;
}

/**
 * Fail (never skip) a security test when the portal has no route it tests, so that renaming or
 * removing a route turns its tests red instead of green.
 */
export function expectRoutes(app: FastifyInstance, ...keys: string[]): void {
  const present = new Set(routerRoutes(app).map((r) => `${r.method} ${r.path}`));
  expect(
    keys.filter((k) => !present.has(k)),
    'routes this security test needs are missing',
  ).toEqual([]);
}
