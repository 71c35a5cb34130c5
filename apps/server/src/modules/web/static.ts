import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { isApiPath, routerPath } from '../../http/csrf.js';
import { AppError, sendProblem } from '../../http/problem.js';
import type { PrerenderedPages } from './prerendered.js';

/**
 * Serves the built web app: hashed assets cached for a year, index.html never cached, and the
 * history fallback (any other GET that accepts HTML gets index.html so the client router answers).
 * A public page the build pre-rendered is sent as its file in the visitor's language instead
 * (./prerendered.ts), never cached either, and varying with the cookie and Accept-Language.
 * The build writes brotli and gzip copies next to each file (apps/web/precompress.ts): the one the
 * browser accepts is sent as it is, with Content-Encoding and Vary: Accept-Encoding.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string, prerendered: PrerenderedPages): Promise<void> {
  const indexFile = join(distDir, 'index.html');
  const hasBuild = existsSync(indexFile);
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      setHeaders(res, path) {
        if (/[/\\](?:index|prerendered[/\\][^/\\]+)\.html(?:\.br|\.gz)?$/.test(path)) void res.header('cache-control', 'no-cache');
        else if (/[/\\]assets[/\\]/.test(path)) void res.header('cache-control', 'public, max-age=31536000, immutable');
        else void res.header('cache-control', 'public, max-age=3600');
      },
    });
  } else {
    app.log.warn({ distDir }, 'the web app is not built; run npm run build');
  }

  app.setNotFoundHandler(async (request, reply) => {
    const path = routerPath(request);
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !isApiPath(path) &&
      !path.startsWith('/connect/') &&
      !path.startsWith('/assets/') &&
      (request.headers.accept ?? '').includes('text/html');
    const page = wantsPage && hasBuild ? prerendered.fileFor(request, path) : null;
    if (page) return reply.code(200).header('vary', 'Cookie, Accept-Language').sendFile(page);
    if (wantsPage && hasBuild) {
      // the file itself, so that its brotli or gzip copy is sent to a browser that accepts it
      return reply.code(200).sendFile('index.html');
    }
    return sendProblem(request, reply, new AppError('not_found'));
  });
}
