import type { FastifyInstance } from 'fastify';

/**
 * JSON request bodies (README, "HTTP conventions"): an empty body (or only whitespace) sent with
 * `Content-Type: application/json` is no body, as if the header were absent. Many HTTP clients
 * send the header on every request, also on calls that take no body (DELETE, a verify, a decline);
 * such a call succeeds, and a call that needs a body answers 400 with its field errors. Anything
 * else is read by Fastify's own JSON parser (a prototype-poisoning key is refused): a body that is
 * no JSON stays 400 invalid_json (http/problem.ts).
 */
export function readEmptyJsonBodiesAsNone(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    // Fastify's parser answers through `done` (its type allows a promise too)
    void parseJson(request, text, done);
  });
}
