import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { isApiPath } from '../../http/csrf.js';
import { AppError, sendProblem } from '../../http/problem.js';

/**
 * Serves the built web app: hashed assets cached for a year, index.html never cached, and the
 * history fallback (any other GET that accepts HTML gets index.html so the client router answers).
 */
export async function registerWebApp(app: FastifyInstance, distDir: string): Promise<void> {
  const indexFile = join(distDir, 'index.html');
  const hasBuild = existsSync(indexFile);
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      setHeaders(res, path) {
        if (/[/\\]assets[/\\]/.test(path)) void res.header('cache-control', 'public, max-age=31536000, immutable');
        else void res.header('cache-control', 'public, max-age=3600');
      },
    });
  } else {
    app.log.warn({ distDir }, 'the web app is not built; run npm run build');
  }
  const indexHtml = hasBuild ? readFileSync(indexFile, 'utf8') : null;

  app.setNotFoundHandler({ preHandler: app.rateLimit() }, async (request, reply) => {
    const url = request.url;
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !isApiPath(url) &&
      !url.startsWith('/connect/') &&
      !url.startsWith('/assets/') &&
      (request.headers.accept ?? '').includes('text/html');
    if (wantsPage && indexHtml) {
      return reply.code(200).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml);
    }
    return sendProblem(request, reply, new AppError('not_found'));
  });
}
