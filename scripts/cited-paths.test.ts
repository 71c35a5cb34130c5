import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every repository path the documents cite exists: README.md and every markdown file under docs/
 * and bench/ are read; each path in backticks, in a fenced block or as a link target is checked.
 *
 * - A path from the repository's root (`apps/…`, `packages/…`, `docs/…`, `e2e/…`, `bench/…`,
 *   `scripts/…`, `.ci/…`) must exist. Built output is checked through what it is built from: the
 *   server's `apps/server/dist/x.js` needs `apps/server/src/x.ts`; other ignored output
 *   (`bench/results.json`, `apps/web/dist`) needs the folder it is written to.
 * - A shorter path that names a file or a folder (`oidc/adapter.ts`, `locales/administration/`)
 *   must be the end of some path in the repository (or be ignored output, such as `dist/`).
 * - A relative link must reach a file, and a `#fragment` into a markdown file one of its headings.
 * - A placeholder (`*`, `<feature>`, `{id}`, `NNNN`, `…`) ends the part that is checked.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ROOTED = /^(?:apps|packages|docs|e2e|bench|scripts|\.ci)\//;
const FILE_EXTENSIONS = /\.(?:ts|tsx|mts|js|mjs|cjs|json|sql|md|css|svg|webm|pdf|html|ya?ml|sh)$/;
const PLACEHOLDER = /[*<>{}…]|\.\.\.|NNN|\bN\b/;
const SKIPPED_FOLDERS = new Set(['node_modules', '.git', 'dist', 'data', 'coverage', 'test-results', 'screenshots']);

function walk(folder: string, found: string[] = []): string[] {
  for (const entry of readdirSync(join(ROOT, folder), { withFileTypes: true })) {
    if (SKIPPED_FOLDERS.has(entry.name)) continue;
    const path = folder ? `${folder}/${entry.name}` : entry.name;
    if (entry.isDirectory()) walk(path, found);
    else found.push(path);
  }
  return found;
}

const repositoryFiles = walk('');
const repositoryFolders = new Set(
  repositoryFiles.flatMap((file) =>
    file
      .split('/')
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
  ),
);

/** The documents whose citations are checked. */
const documents = repositoryFiles.filter((file) => file === 'README.md' || /^(?:docs|bench)\/.*\.md$/.test(file)).sort();

/** The .gitignore's patterns, as a test of a path from the root (folder names, globs, exact paths). */
const ignoredPatterns = readFileSync(join(ROOT, '.gitignore'), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'));
function isIgnored(path: string): boolean {
  const segments = path.split('/');
  return ignoredPatterns.some((pattern) => {
    if (pattern.endsWith('/')) return segments.slice(0, -1).includes(pattern.slice(0, -1)) || segments.includes(pattern.slice(0, -1));
    if (pattern.startsWith('*')) return path.endsWith(pattern.slice(1));
    return path === pattern || path.startsWith(`${pattern}/`);
  });
}

/** The part of a path before its first placeholder segment. */
function concretePart(path: string): string {
  const kept: string[] = [];
  for (const segment of path.split('/')) {
    if (PLACEHOLDER.test(segment)) break;
    kept.push(segment);
  }
  return kept.join('/');
}

function isFileOrFolder(path: string): boolean {
  return existsSync(join(ROOT, path));
}

/** Why a path cited from the root is missing, or null when it is there. */
function checkRooted(path: string): string | null {
  const concrete = concretePart(path.replace(/\/$/, ''));
  if (concrete !== path.replace(/\/$/, '')) {
    return concrete && isFileOrFolder(concrete) ? null : `${path} (${concrete || path} does not exist)`;
  }
  if (isFileOrFolder(concrete)) return null;
  if (isIgnored(concrete)) {
    const serverBuild = /^apps\/server\/dist\/(.+)\.js$/.exec(concrete);
    if (serverBuild) {
      const source = `apps/server/src/${serverBuild[1]}.ts`;
      return isFileOrFolder(source) ? null : `${path} (built from ${source}, which does not exist)`;
    }
    const folder = dirname(concrete);
    return isFileOrFolder(folder) ? null : `${path} (its folder ${folder} does not exist)`;
  }
  return path;
}

/** Why a shorter path is missing (no file or folder of the repository ends with it), or null. */
function checkShort(path: string): string | null {
  const folder = path.endsWith('/');
  const concrete = concretePart(path.replace(/\/$/, ''));
  const wanted = `/${concrete}`;
  const asFolder = folder || concrete !== path.replace(/\/$/, '');
  if (!concrete || isIgnored(concrete)) return null;
  const found = asFolder
    ? [...repositoryFolders].some((f) => `/${f}`.endsWith(wanted))
    : repositoryFiles.some((f) => `/${f}`.endsWith(wanted));
  return found ? null : `${path} (no ${asFolder ? 'folder' : 'file'} of the repository ends with ${concrete})`;
}

/** GitHub's anchors of a markdown file's headings. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutFences(markdown).split('\n')) {
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = heading[1]!
      .replace(/`/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count ? `${base}-${count}` : base);
  }
  return anchors;
}

function withoutFences(markdown: string): string {
  return markdown.replace(/^([ \t]*)(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1\2[^\n]*$/gm, '');
}

/** Words of the document that may be paths: in fenced blocks and code spans, split at spaces. */
function codeWords(markdown: string): string[] {
  const words: string[] = [];
  const fences = markdown.match(/^([ \t]*)(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1\2[^\n]*$/gm) ?? [];
  for (const fence of fences) words.push(...fence.split('\n').slice(1, -1).join('\n').split(/\s+/));
  for (const span of withoutFences(markdown).matchAll(/(`+)([^`]+?)\1/g)) words.push(...span[2]!.split(/\s+/));
  return words.map((word) => word.replace(/^["'([]+|[)"',;:.\]]+$/g, '')).filter(Boolean);
}

function linkTargets(markdown: string): string[] {
  return [...withoutFences(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1]!);
}

export interface Citations {
  checked: string[];
  missing: string[];
}

/** The paths a document cites, and those of them that do not exist. */
export function citedPaths(document: string, markdown: string): Citations {
  const checked: string[] = [];
  const missing: string[] = [];
  const check = (cited: string, problem: string | null) => {
    checked.push(cited);
    if (problem) missing.push(problem);
  };
  for (const word of new Set(codeWords(markdown))) {
    if (/^[a-z][\w+.-]*:/i.test(word) || word.startsWith('/') || word.startsWith('@') || word.startsWith('-')) continue;
    if (!/^[\w.@<>{}*…-]+(?:\/[\w.@<>{}*…[\]-]*)+$/.test(word)) continue;
    if (ROOTED.test(word)) check(word, checkRooted(word));
    else if (FILE_EXTENSIONS.test(word) || word.endsWith('/')) check(word, checkShort(word));
  }
  for (const target of new Set(linkTargets(markdown))) {
    if (/^[a-z][\w+.-]*:/i.test(target) || target.startsWith('/')) continue;
    const [file = '', fragment] = target.split('#');
    const path = file
      ? normalize(join(dirname(document), decodeURIComponent(file)))
          .split(sep)
          .join('/')
      : document;
    if (path.startsWith('..') || relative(ROOT, join(ROOT, path)).startsWith('..')) {
      check(target, `${target} (outside the repository)`);
      continue;
    }
    if (!isFileOrFolder(path)) {
      check(target, `${target} (${path} does not exist)`);
      continue;
    }
    if (fragment && path.endsWith('.md') && statSync(join(ROOT, path)).isFile()) {
      const anchors = headingAnchors(readFileSync(join(ROOT, path), 'utf8'));
      check(target, anchors.has(fragment) ? null : `${target} (${path} has no heading #${fragment})`);
      continue;
    }
    check(target, null);
  }
  return { checked, missing };
}

describe('paths cited by the documents', () => {
  it('finds the documents: README.md and docs/', () => {
    expect(documents).toContain('README.md');
    expect(documents.filter((d) => d.startsWith('docs/decisions/')).length).toBeGreaterThan(5);
  });

  it('reports a cited path that does not exist, and accepts those that do', () => {
    const sample = [
      'See `apps/server/src/config.ts`, `apps/server/src/gone.ts` and `oidc/adapter.ts` or `oidc/gone.ts`.',
      'Run `node apps/server/dist/cli/rotate-keys.js`, `node apps/server/dist/cli/gone.js`; results in `bench/results.json`.',
      'Placeholders: `apps/server/migrations/NNNN_name.sql`, `apps/web/src/features/*`, `apps/nowhere/*`.',
      'Links: [ADR](decisions/001-stack.md), [gone](decisions/999-gone.md), [heading](performance.md#no-such-heading).',
      '```',
      'npx vitest run --project integration apps/server/test/...',
      'node bench/gone.mjs',
      '```',
    ].join('\n');
    const { missing } = citedPaths('docs/sample.md', sample);
    expect([...missing].sort()).toEqual(
      [
        'apps/server/src/gone.ts',
        'oidc/gone.ts (no file of the repository ends with oidc/gone.ts)',
        'apps/server/dist/cli/gone.js (built from apps/server/src/cli/gone.ts, which does not exist)',
        'apps/nowhere/* (apps/nowhere does not exist)',
        'bench/gone.mjs',
        'decisions/999-gone.md (docs/decisions/999-gone.md does not exist)',
        'performance.md#no-such-heading (docs/performance.md has no heading #no-such-heading)',
      ].sort(),
    );
  });

  const results = new Map(documents.map((document) => [document, citedPaths(document, readFileSync(join(ROOT, document), 'utf8'))]));

  it.each(documents)('%s names only paths that exist', (document) => {
    expect(results.get(document)?.missing, `${document} cites paths that do not exist`).toEqual([]);
  });

  it('checks the paths the documents really cite (not a vacuous pass)', () => {
    const checked = [...results.values()].reduce((sum, { checked }) => sum + checked.length, 0);
    expect(checked).toBeGreaterThan(100);
  });
});
