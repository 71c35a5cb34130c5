import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyRequest } from 'fastify';
import {
  DEFAULT_INTERFACE_LANGUAGE,
  INTERFACE_LANGUAGE_COOKIE,
  INTERFACE_LANGUAGES,
  interfaceLanguageOf,
  interfaceLanguageOfAcceptLanguage,
  type InterfaceLanguage,
} from '@partner-portal/contracts';

/** One page of the web build's `prerendered/pages.json` (apps/web/src/prerender/pages.ts). */
interface PageEntry {
  name: string;
  path: string;
  needs: string[];
  not: string[];
  files: Partial<Record<InterfaceLanguage, string>>;
}

interface PageList {
  scriptHashes: string[];
  pages: PageEntry[];
}

/**
 * The public pages the web build pre-rendered, one file per interface language
 * (docs/decisions/021-pre-rendered-public-pages.md), and the hashes of their inline script for the
 * Content-Security-Policy. Without a build (or one without pre-rendered pages) there are none.
 */
export class PrerenderedPages {
  readonly scriptHashes: string[];
  private readonly pages: (PageEntry & { pattern: RegExp })[];

  private constructor(list: PageList) {
    this.scriptHashes = list.scriptHashes;
    this.pages = list.pages.map((page) => ({ ...page, pattern: new RegExp(page.path, 'i') }));
  }

  static load(distDir: string): PrerenderedPages {
    let list: PageList = { scriptHashes: [], pages: [] };
    try {
      list = JSON.parse(readFileSync(join(distDir, 'prerendered', 'pages.json'), 'utf8')) as PageList;
    } catch {
      // no pre-rendered pages: every page renders in the browser
    }
    return new PrerenderedPages(list);
  }

  /**
   * The file (relative to the build) that answers a page request, or null when the page was not
   * pre-rendered for this address: its path matches, its query has every parameter the page needs
   * and none that changes its first render. The language: the link's (`lang`, which reset and
   * invitation links carry), the one picked on this device (its cookie), the browser's
   * (Accept-Language), en-GB — as the web app starts (apps/web/src/lib/i18n.ts).
   */
  fileFor(request: FastifyRequest, path: string): string | null {
    const page = this.pages.find((p) => p.pattern.test(path));
    if (!page) return null;
    const query = new URLSearchParams(request.url.split('?')[1] ?? '');
    if (!page.needs.every((name) => query.get(name)) || page.not.some((name) => query.has(name))) return null;
    const cookie = request.cookies[INTERFACE_LANGUAGE_COOKIE];
    const language =
      interfaceLanguageOf(query.get('lang')) ??
      (INTERFACE_LANGUAGES as readonly string[]).find((l) => l === cookie) ??
      interfaceLanguageOfAcceptLanguage(request.headers['accept-language']) ??
      DEFAULT_INTERFACE_LANGUAGE;
    return page.files[language as InterfaceLanguage] ?? null;
  }
}
