import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { escapeHtml } from '../http/html.js';
import { withFormAction } from './form-action.js';
import { ROUTES } from './provider.js';
import type { Oidc } from './runtime.js';

const logoutQuery = z.object({ logoutId: z.string().max(200).optional() });

/**
 * The pages of an RP-initiated logout that the portal serves itself under /connect/logout/ (the
 * provider's end_session endpoint sends the browser to the web app's /logout first, which comes
 * here: logoutSource in oidc/provider.ts): the confirmation that ends the provider session, and the
 * front-channel iframes.
 */
export function registerLogoutPages(app: FastifyInstance, oidc: Oidc): void {
  const { config } = app.services;

  /** Script of the confirm page (script-src 'self': no inline script). */
  app.get('/connect/logout/submit.js', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send("document.addEventListener('DOMContentLoaded', function () { document.forms[0].submit(); });\n"),
  );

  /**
   * The post-logout address given to the web app for an RP-initiated logout: posts the provider's
   * confirmation (its xsrf secret) so the provider ends its session, revokes the grants, notifies
   * back-channel clients and redirects to the client's post_logout_redirect_uri.
   */
  app.get('/connect/logout/confirm', { schema: { hide: true, querystring: logoutQuery } }, async (request, reply) => {
    const { logoutId } = request.query as { logoutId?: string };
    const record = await oidc.logouts.find(logoutId);
    // the record lives on (10 minutes) for the front-channel page; the provider's xsrf secret
    // works once, as the provider session ends with it
    if (!record) return reply.redirect('/login', 303);
    const action = `${oidc.issuer}${ROUTES.end_session}/confirm`;
    const html = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Logging out</title><script src="/connect/logout/submit.js"></script></head>
<body><form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="xsrf" value="${escapeHtml(record.xsrf)}"/><input type="hidden" name="logout" value="yes"/>
<noscript><button type="submit" autofocus>Log out</button></noscript></form></body></html>`;
    // the form, and the provider's redirect after it, may reach the client's post_logout_redirect_uri
    // (validated by the provider against the client's registered ones) and nothing else (form-action.ts)
    const csp = String(reply.getHeader('content-security-policy') ?? '');
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-security-policy', withFormAction(csp, record.postLogoutRedirectUri ? [record.postLogoutRedirectUri] : []))
      .send(html);
  });

  /** The iframe_url of a logout: one iframe per client with a front-channel logout URI. */
  app.get('/connect/logout/frontchannel', { schema: { hide: true, querystring: logoutQuery } }, async (request, reply) => {
    const { logoutId } = request.query as { logoutId?: string };
    const record = await oidc.logouts.find(logoutId);
    const frames = (record?.frontchannelUris ?? [])
      .map((u) => `<iframe src="${escapeHtml(u)}" title="logout" style="display:none"></iframe>`)
      .join('\n');
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('x-frame-options', 'SAMEORIGIN')
      .header(
        'content-security-policy',
        `default-src 'none'; frame-src https: ${config.isProduction ? '' : 'http:'}; frame-ancestors 'self'`,
      )
      .send(`<!DOCTYPE html><html><head><meta charset="utf-8"><title>Logout</title></head><body>${frames}</body></html>`);
  });
}
