import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { isApiPath, routerPath } from '../../http/csrf.js';
import { AppError, sendProblem } from '../../http/problem.js';
import type { PrerenderedPages } from './prerendered.js';

/**
 * A file of the build whose name carries Vite's content hash (`assets/index-BE5e5D8x.js`, and its
 * `.br` / `.gz` copies): a new build gives changed content a new name, so browsers may keep it for
 * a year without asking again.
 */
const HASHED_ASSET = /[/\\]assets[/\\][^/\\]+-[A-Za-z0-9_-]{8}\.[a-z0-9]+(?:\.br|\.gz)?$/;
/** A page (`index.html`, or any other HTML file of the build, with its compressed copies). */
const PAGE = /\.html(?:\.br|\.gz)?$/;

/**
 * Serves the built web app: hashed assets cached for a year (`immutable`), pages never used
 * without asking the server again (`no-cache`), other files for an hour; and the history fallback
 * (any other GET that accepts HTML gets index.html so the client router answers). A public page
 * the build pre-rendered is sent as its file in the visitor's language instead (./prerendered.ts),
 * never cached either, and varying with the cookie and Accept-Language.
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
        if (PAGE.test(path)) void res.header('cache-control', 'no-cache');
        else if (HASHED_ASSET.test(path)) void res.header('cache-control', 'public, max-age=31536000, immutable');
        else void res.header('cache-control', 'public, max-age=3600');
      },
    });
  } else {
    app.log.warn({ distDir }, 'the web app is not built; run npm run build');
  }

  app.setNotFoundHandler(async (request, reply) => {
    const path = routerPath(request);
    // a page: any other GET of a path outside the API, the provider, SCIM and the build's assets,
    // whatever its Accept header (`curl /` gets the web app, not a problem)
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !isApiPath(path) &&
      !path.startsWith('/connect/') &&
      !path.startsWith('/scim/') &&
      !path.startsWith('/.well-known/') &&
      !path.startsWith('/assets/');
    if (wantsPage && hasBuild) {
      const prerenderedFile = prerendered.fileFor(request, path);
      const page = prerendered.page(prerenderedFile ?? 'index.html');
      if (page) {
        const encoding = acceptedEncoding(request.headers['accept-encoding']);
        void reply
          .code(200)
          .header('content-type', 'text/html; charset=utf-8')
          .header('cache-control', 'no-cache')
          .header('vary', prerenderedFile ? 'Accept-Encoding, Cookie, Accept-Language' : 'Accept-Encoding');
        if (encoding) void reply.header('content-encoding', encoding);
        return reply.send(page.body(encoding));
      }
    }
    return sendProblem(request, reply, new AppError('not_found'));
  });
}

/** The compression a client accepts for a page: brotli, else gzip, else none (a coding with q=0 is refused). */
export function acceptedEncoding(header: string | undefined): 'br' | 'gzip' | null {
  const accepted = new Set(
    (header ?? '')
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, ...params]) => !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p)))
      .map(([coding]) => (coding ?? '').trim().toLowerCase()),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return null;
}
