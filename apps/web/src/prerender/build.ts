/**
 * The pre-render (docs/decisions/021-pre-rendered-public-pages.md): after the browser build, `npm run
 * build` builds this module for Node (Vite's SSR build, to apps/web/dist-ssr) and runs it. For
 * every page of ./pages.ts and every interface language it writes `dist/prerendered/<page>.<language>.html`:
 * the application's index.html with the page rendered into it, the entry's stylesheet inline
 * instead of linked (the only one the pre-rendered states use; its link kept, disabled), the hand-over script inline, the
 * language's translations and the view's code preloaded after the page (not before it: they would
 * share a slow connection with the page's own bytes), and the head in the language. Beside
 * them `pages.json` tells the server which file serves which address, and the hash of the inline
 * script for the Content-Security-Policy.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { INTERFACE_LANGUAGES } from '@partner-portal/contracts';
import { DEFAULT_CONFIGURATION } from '@/lib/config';
import { precompressDirectory } from '../../precompress';
import { HAND_OVER_SCRIPT } from '@/lib/hand-over';
import { PRERENDERED_PAGES } from './pages';
import { headOf, renderPage, setUpTranslations } from './render';

interface ManifestChunk {
  file: string;
  imports?: string[];
  isEntry?: boolean;
}

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const out = `${dist}prerendered/`;

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The files of a chunk and of every chunk it imports, but for those the entry loads already. */
function chunkFiles(manifest: Record<string, ManifestChunk>, key: string, skip: Set<string>, found = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk || skip.has(chunk.file) || found.has(chunk.file)) return found;
  found.add(chunk.file);
  for (const imported of chunk.imports ?? []) chunkFiles(manifest, imported, skip, found);
  return found;
}

async function main(): Promise<void> {
  const template = await readFile(`${dist}index.html`, 'utf8');
  const manifest = JSON.parse(await readFile(`${dist}.vite/manifest.json`, 'utf8')) as Record<string, ManifestChunk>;
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entryKey) throw new Error('the build manifest names no entry');
  const entryFiles = chunkFiles(manifest, entryKey, new Set());

  // the entry's stylesheets, inline and in their order: the shell's and the pre-rendered pages'
  // styles (app/login-styles.ts, and the theme's classes: components/theme.module.css)
  const stylesheets = [...template.matchAll(/<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>\s*/g)];
  if (!stylesheets.length) throw new Error('index.html links no stylesheet');
  const css = (await Promise.all(stylesheets.map(([, file]) => readFile(`${dist}${file}`, 'utf8'))))
    .join('\n')
    .replace(/<\/style/gi, '<\\/style');
  const scriptHash = `sha256-${createHash('sha256').update(HAND_OVER_SCRIPT).digest('base64')}`;

  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  await setUpTranslations();
  const files: Record<string, Record<string, string>> = {};
  for (const page of PRERENDERED_PAGES) {
    const pageFiles: Record<string, string> = (files[page.name] = {});
    for (const language of INTERFACE_LANGUAGES) {
      const body = await renderPage(page.url, language);
      const { title, description } = headOf(page.url, language);
      const preload = new Set<string>();
      if (language !== 'en-GB') for (const f of chunkFiles(manifest, `src/locales/${language}.json`, entryFiles)) preload.add(f);
      if (page.view) for (const f of chunkFiles(manifest, page.view, entryFiles)) preload.add(f);
      const html = template
        .replace(/<html lang="[^"]*"/, `<html lang="${language}"`)
        .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>`)
        .replace(/<meta name="description" content="[^"]*"/, `<meta name="description" content="${escapeHtml(description)}"`)
        // each inlined stylesheet stays named by a disabled link, which the browser neither loads
        // nor applies: Vite's preloading of a view's styles counts the stylesheets linked in the
        // page, and would otherwise link the entry's again after Mantine's whole stylesheet, whose
        // rules it would then override (the organization page's tabs lost their selected state
        // after a sign-in; e2e/tests/styles-after-sign-in.test.ts)
        .replace(/<link rel="stylesheet"([^>]*)>/g, '<link rel="stylesheet"$1 disabled>')
        .replace('</head>', [`<style>${css}</style>`, `<script>${HAND_OVER_SCRIPT}</script>`, '</head>'].join('\n'))
        .replace(
          '<div id="root"></div>',
          [
            `<div id="root" data-prerendered="${language}">${body}</div>`,
            ...[...preload].map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`),
          ].join('\n'),
        );
      if (!html.includes(`data-prerendered="${language}"`)) throw new Error('index.html has no <div id="root"></div>');
      const file = `${page.name}.${language}.html`;
      await writeFile(`${out}${file}`, html);
      pageFiles[language] = `prerendered/${file}`;
    }
  }
  const pages = PRERENDERED_PAGES.map(({ name, path, needs, not }) => ({ name, path, needs, not, files: files[name] }));
  // the site settings the pages show as rendered: the server puts the configured ones in their place
  const configuration = DEFAULT_CONFIGURATION;
  await writeFile(`${out}pages.json`, `${JSON.stringify({ scriptHashes: [scriptHash], pages, configuration }, null, 2)}\n`);
  await precompressDirectory(out);
  console.log(`pre-rendered ${PRERENDERED_PAGES.length} pages in ${INTERFACE_LANGUAGES.length} languages to ${out}`);
}

await main();
