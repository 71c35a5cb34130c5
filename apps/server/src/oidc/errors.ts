import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorRecord, RecordStore } from './records.js';

/** The web page that shows an error record: /error?errorId= or the login page's /login?loginError=. */
const ERROR_PAGES = { error: '/error?errorId=', login: '/login?loginError=' } as const;

/**
 * The one error redirect of browser navigations (interaction pages, the external login): keep the
 * error as a record and send the browser to the web page that shows it. The provider's own
 * errors (renderError in provider.ts) go to /error the same way.
 */
export async function redirectToError(
  errors: RecordStore<ErrorRecord>,
  request: FastifyRequest,
  reply: FastifyReply,
  page: keyof typeof ERROR_PAGES,
  error: string,
  description: string | null,
  params: Record<string, string> | null = null,
): Promise<FastifyReply> {
  const errorId = await errors.create({
    params,
    error,
    error_description: description,
    request_id: request.id,
    client_id: null,
    redirect_uri: null,
    response_mode: null,
    ui_locales: null,
    display_mode: null,
  });
  return reply.redirect(`${ERROR_PAGES[page]}${encodeURIComponent(errorId)}`, 303);
}
