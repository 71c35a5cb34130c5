import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync } from 'node:fs';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

const typeScriptResolver = createTypeScriptImportResolver({
  project: ['apps/server/tsconfig.json', 'apps/web/tsconfig.json'],
  noWarnOnMultipleProjects: true,
});
// the web app's '@/' alias (apps/web/tsconfig.json), resolved as a path under apps/web/src
const webSource = path.join(import.meta.dirname, 'apps/web/src');
const webAliasResolver = {
  interfaceVersion: 3,
  name: 'web-alias',
  resolve: (source, file) =>
    source.startsWith('@/') ? typeScriptResolver.resolve(path.join(webSource, source.slice(2)), file) : { found: false },
};

/**
 * The server's layers, bottom first (docs/decisions/008-module-graph.md). A folder or file imports
 * only from layers below its own: never from a layer above, nor from another entry of its own
 * layer. Within an entry, files import each other freely (import-x/no-cycle still forbids loops).
 */
const SERVER_LAYERS = [
  ['config.ts'],
  ['db'],
  ['outbox'],
  ['http'],
  ['password-hashing.ts', 'sealed.ts', 'secrets.ts'],
  ['modules/mail', 'modules/counters', 'modules/spreadsheets'],
  ['services.ts'],
  ['oidc'],
  ['modules/scope'],
  ['modules/audit', 'modules/sessions', 'modules/health', 'modules/web'],
  ['modules/webhooks'],
  ['modules/domains'],
  ['modules/organizations', 'modules/service-accounts'],
  ['modules/members', 'modules/portal', 'modules/developer'],
  ['modules/factors'],
  ['modules/sso'],
  ['modules/identity'],
  ['modules/invitations'],
  ['modules/scim'],
  ['modules/organization-details', 'modules/access-requests'],
  ['module-services.ts'],
  ['bootstrap.ts', 'jobs.ts', 'app.ts'],
  ['main.ts'],
  ['cli'],
];
const server = (entry) => `apps/server/src/${entry}`;
const serverZones = SERVER_LAYERS.flatMap((layer, i) =>
  layer.map((entry) => ({
    target: server(entry),
    from: [...layer.filter((other) => other !== entry), ...SERVER_LAYERS.slice(i + 1).flat()].map(server),
    message: 'Server modules import only downward (the layers in eslint.config.js, docs/decisions/008-module-graph.md).',
  })),
).filter((zone) => zone.from.length > 0);

const RECORD_CHANGE =
  "Record a change with recordChange (modules/webhooks/changes.ts): it writes the audit entry and the events in the change's transaction.";

/**
 * Web features do not import each other, but for the features listed in WEB_FEATURE_LAYERS, bottom
 * first: one of those imports only the layers below its own (the organization page shows the
 * integrations and identity sections; the integrations' SCIM tokens and setup links follow the
 * identity's connection policy). components/ and lib/ import no feature and not app/; nothing in
 * the browser's code imports prerender/ (build-time code).
 */
const WEB_FEATURE_LAYERS = [['identity'], ['integrations'], ['organizations']];
const web = (dir) => `apps/web/src/${dir}`;
const webFeatures = readdirSync(web('features'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const featuresBelow = (feature) => {
  const layer = WEB_FEATURE_LAYERS.findIndex((entries) => entries.includes(feature));
  return layer < 0 ? [] : WEB_FEATURE_LAYERS.slice(0, layer).flat();
};
const webZones = [
  ...webFeatures.map((feature) => ({
    target: web(`features/${feature}`),
    from: web('features'),
    except: [feature, ...featuresBelow(feature)].map((f) => `./${f}`),
    message:
      'A feature does not import another feature (but for the layers of WEB_FEATURE_LAYERS): share through components/ or lib/ (app/ composes features).',
  })),
  { target: web('features'), from: web('app'), message: 'Features do not import app/ (app/ imports features).' },
  {
    target: [web('components'), web('lib')],
    from: [web('features'), web('app')],
    message: 'components/ and lib/ are shared below the features: they import no feature and not app/.',
  },
  {
    target: [web('app'), web('features'), web('components'), web('lib')],
    from: web('prerender'),
    message: 'prerender/ is build-time code on top of app/ (it renders the public pages): the browser code imports none of it.',
  },
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', '**/*.js', 'bench/results*'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/only-throw-error': 'off',
      // Fastify plugins and handlers are async by convention, with or without await
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // tests read loosely typed JSON bodies on purpose
    files: ['**/test/**/*.ts', '**/test-resilience/**/*.ts', 'e2e/**/*.ts', 'bench/**/*.ts', '**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // scripts and benchmarks in plain JavaScript (Node): linted without type information
    files: ['**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, globals: { ...globals.node } },
  },
  {
    // these hold functions that run inside the page (Playwright's page.evaluate)
    files: ['bench/lib/web.mjs', 'apps/web/scripts/*.mjs'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    // the module graph: no import loops, and the layers above
    files: ['apps/server/src/**/*.ts', 'apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      // dependencies are parsed as TypeScript (no-cycle follows their imports)
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [webAliasResolver, typeScriptResolver],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: [...serverZones, ...webZones] }],
    },
  },
  {
    // a change is recorded in one place (docs/decisions/009-one-place-per-rule.md): its audit entry
    // and its webhook events are written by recordChange (modules/webhooks/changes.ts), never by hand
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/modules/webhooks/changes.ts', 'apps/server/src/modules/audit/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '(^|/)audit/service\\.js$', importNames: ['audit'], message: RECORD_CHANGE },
            { regex: '(^|/)audit/queries\\.js$', importNames: ['insertAuditEntry'], message: RECORD_CHANGE },
            { regex: '(^|/)webhooks/outbox\\.js$', importNames: ['recordEvent'], message: RECORD_CHANGE },
            { regex: '(^|/)webhooks/queries\\.js$', importNames: ['insertDeliveries'], message: RECORD_CHANGE },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
);
