import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Files worth compressing (fonts in woff2, images, video and PDF are compressed already). */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest|map|ico)$/i;
const MIN_BYTES = 1024;

async function* files(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== '.vite') yield* files(path);
    } else if (COMPRESSIBLE.test(entry.name)) {
      yield path;
    }
  }
}

/** Write a `.br` and a `.gz` copy next to every compressible file of dir of at least 1 KB. */
export async function precompressDirectory(dir: string): Promise<void> {
  for await (const path of files(dir)) {
    if ((await stat(path)).size < MIN_BYTES) continue;
    const content = await readFile(path);
    const [br, gz] = await Promise.all([
      brotli(content, {
        params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
      }),
      gzipAsync(content, { level: constants.Z_BEST_COMPRESSION }),
    ]);
    await Promise.all([writeFile(`${path}.br`, br), writeFile(`${path}.gz`, gz)]);
  }
}

/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) copy next to every compressible file of the build,
 * at the strongest settings (they are made once), for the server to send as they are
 * (apps/server/src/modules/web/static.ts).
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'partner-portal:precompress',
    // the browser build's files (the pre-render, an SSR build, compresses its pages itself)
    apply: (_config, { command, isSsrBuild }) => command === 'build' && !isSsrBuild,
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await precompressDirectory(outDir);
    },
  };
}
