import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { FastifyRequest } from 'fastify';
import {
  DEFAULT_INTERFACE_LANGUAGE,
  INTERFACE_LANGUAGE_COOKIE,
  INTERFACE_LANGUAGES,
  interfaceLanguageOf,
  interfaceLanguageOfAcceptLanguage,
  type InterfaceLanguage,
  type PortalConfiguration,
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
  /** the site settings the pages were rendered with (the web app's defaults) */
  configuration?: Partial<Record<keyof PortalConfiguration, string>>;
}

/** The element of index.html whose JSON the web app reads its site settings from before any request (apps/web/src/lib/config.ts). */
const CONFIGURATION_ELEMENT = '<script type="application/json" id="portal-configuration"></script>';

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A page as the server sends it: its bytes, and their brotli and gzip copies, made at the first request for each. */
export interface ServedPage {
  body(encoding: 'br' | 'gzip' | null): Buffer;
}

/**
 * The public pages the web build pre-rendered, one file per interface language
 * (docs/decisions/021-pre-rendered-public-pages.md), and the hashes of their inline script for the
 * Content-Security-Policy. Without a build (or one without pre-rendered pages) there are none.
 *
 * Every page carries the runtime site settings from its first byte (the operating contract,
 * `SALES_CONTACT_EMAIL`): the settings as JSON in index.html's `portal-configuration` element,
 * which the web app reads before it renders, and, in a pre-rendered page, the values it was
 * rendered with replaced by the configured ones. Pages are kept in memory once asked for, with
 * their brotli and gzip copies.
 */
export class PrerenderedPages {
  readonly scriptHashes: string[];
  private readonly pages: (PageEntry & { pattern: RegExp })[];
  private readonly served = new Map<string, ServedPage>();

  private constructor(
    list: PageList,
    private readonly distDir: string,
    private readonly configuration: PortalConfiguration | null,
  ) {
    this.scriptHashes = list.scriptHashes;
    this.pages = list.pages.map((page) => ({ ...page, pattern: new RegExp(page.path, 'i') }));
    this.renderedWith = list.configuration ?? {};
  }

  private readonly renderedWith: Partial<Record<keyof PortalConfiguration, string>>;

  static load(distDir: string, configuration: PortalConfiguration | null = null): PrerenderedPages {
    let list: PageList = { scriptHashes: [], pages: [] };
    try {
      list = JSON.parse(readFileSync(join(distDir, 'prerendered', 'pages.json'), 'utf8')) as PageList;
    } catch {
      // no pre-rendered pages: every page renders in the browser
    }
    return new PrerenderedPages(list, distDir, configuration);
  }

  /**
   * A page of the build (`index.html` or a pre-rendered file, relative to the build) with the
   * runtime site settings in it; null when it cannot be read.
   */
  page(file: string): ServedPage | null {
    const known = this.served.get(file);
    if (known) return known;
    let html: string;
    try {
      html = readFileSync(join(this.distDir, file), 'utf8');
    } catch {
      return null;
    }
    const page = servedPage(this.withSettings(html));
    this.served.set(file, page);
    return page;
  }

  private withSettings(html: string): string {
    const settings = this.configuration;
    if (!settings) return html;
    let out = html;
    for (const [key, rendered] of Object.entries(this.renderedWith) as [keyof PortalConfiguration, string][]) {
      const value = settings[key];
      if (typeof value === 'string' && rendered && value !== rendered) out = out.replaceAll(escapeHtml(rendered), escapeHtml(value));
    }
    // JSON inside a script element: no "<" may close it early
    const json = JSON.stringify(settings)
      .replace(/</g, '\\u003c')
      .replace(/\u2028/g, '\\u2028')
      .replace(/\u2029/g, '\\u2029');
    return out.replace(CONFIGURATION_ELEMENT, CONFIGURATION_ELEMENT.replace('></script>', `>${json}</script>`));
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

function servedPage(html: string): ServedPage {
  const plain = Buffer.from(html, 'utf8');
  const copies: { br?: Buffer; gzip?: Buffer } = {};
  return {
    body(encoding) {
      if (encoding === 'br') return (copies.br ??= brotliCompressSync(plain, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }));
      if (encoding === 'gzip') return (copies.gzip ??= gzipSync(plain, { level: 9 }));
      return plain;
    },
  };
}
