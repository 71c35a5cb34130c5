import type { FastifyInstance } from 'fastify';
import { AppError, sendProblem } from './problem.js';

/**
 * Anti-forgery guard (CONTRACT.md): every request to /api carries `X-CSRF: 1`, else 403 before any
 * other processing. Browser navigations of the external login are protected by state and nonce
 * instead; the OpenAPI document is read-only and meant to be opened in a browser.
 */
const EXEMPT = [
  /^\/api\/identity\/challenge-external-login(?:\?|$)/,
  /^\/api\/identity\/login-external-callback(?:\?|$)/,
  /^\/api\/docs(?:[/?]|$)/,
];

export function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

export function registerCsrfGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    const url = request.url;
    if (!isApiPath(url)) return;
    if (EXEMPT.some((re) => re.test(url)) && (request.method === 'GET' || request.method === 'HEAD')) return;
    if (request.headers['x-csrf'] === '1') return;
    return sendProblem(request, reply, new AppError('csrf_header_missing'));
  });
}
