import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Statuses any route may answer without declaring them, because a guard in front of every route
 * gives them (app.ts registers these guards before the modules): a body too large (413) or of a
 * type the route does not read (415), the rate limit (429), overload and a database busy to its
 * last connection (503), and an unexpected error (500, which the tests find by its own means).
 */
const ANSWERED_BY_SHARED_GUARDS = new Set([413, 415, 429, 500, 503]);

/**
 * The problems of those guards whose status a route also answers for its own reasons (400, 403):
 * a body that is no JSON (problem.ts), a change without X-CSRF (csrf.ts), a service account's
 * call of what only people do (bearer.ts), a support session's or a setup link's call of what it
 * may not do (credentials.ts).
 */
const SHARED_GUARD_PROBLEMS = new Set([
  'invalid_json',
  'csrf_header_missing',
  'service_account_not_allowed',
  'not_during_support_session',
  'setup_link_not_allowed',
]);

/** An answer whose status its route did not declare in its schema's `response`. */
export interface UndeclaredAnswer {
  method: string;
  route: string;
  status: number;
  /** the problem's i18NTranslationKey, when the answer is a problem */
  problem: string | undefined;
}

/** The key of a problem answer (a JSON string with i18NTranslationKey), else undefined. */
function problemKey(payload: unknown): string | undefined {
  if (typeof payload !== 'string' || !payload.startsWith('{')) return undefined;
  try {
    const key = (JSON.parse(payload) as { i18NTranslationKey?: unknown }).i18NTranslationKey;
    return typeof key === 'string' ? key : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Outside production: every answer of a route that declares its answers (`schema.response`, which
 * is also the OpenAPI description clients are built from) is checked against them, and an
 * undeclared one logged at error level and handed to `onUndeclared` (app.ts collects them; a test's
 * portal fails the test file when it closes with any: apps/server/test/support/portal.ts). Routes
 * without a response schema (the provider's, the web app's files) are not checked.
 */
export function checkDeclaredStatuses(
  app: FastifyInstance,
  onUndeclared: (answer: UndeclaredAnswer, request: FastifyRequest) => void,
): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const declared = request.routeOptions.schema?.response as Record<string, unknown> | undefined;
    const status = reply.statusCode;
    if (!declared || ANSWERED_BY_SHARED_GUARDS.has(status)) return payload;
    if (String(status) in declared || `${Math.floor(status / 100)}XX` in declared || 'default' in declared) return payload;
    const problem = problemKey(payload);
    if (problem && SHARED_GUARD_PROBLEMS.has(problem)) return payload;
    const answer = { method: request.method, route: request.routeOptions.url ?? request.url, status, problem };
    request.log.error(
      { undeclaredAnswer: answer },
      `${answer.method} ${answer.route} answered ${status}, which its schema does not declare`,
    );
    onUndeclared(answer, request);
    return payload;
  });
}
