#!/usr/bin/env node
/**
 * How much JavaScript the login route loads, gzipped (at most 130 KB, docs/decisions/007-login-on-a-slow-connection.md). Reads the Vite
 * manifest of a build (default apps/web/dist) and follows the static imports of the entry and of
 * the login route's lazy modules (login layout and login page); prints a table and exits 1 when
 * over the budget. Usage: node apps/web/scripts/login-bundle-size.mjs [distDir] [--budget KB]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const budgetIndex = args.indexOf('--budget');
const budgetKb = budgetIndex >= 0 ? Number(args[budgetIndex + 1]) : 130;
const dist =
  args.find((a, i) => !a.startsWith('--') && (budgetIndex < 0 || i !== budgetIndex + 1)) ??
  fileURLToPath(new URL('../dist/', import.meta.url));
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));

const ROUTE_MODULES = ['src/app/layouts/login-layout.tsx', 'src/features/auth/routes/login-page.tsx'];
const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
const seen = new Set();
const visit = (key) => {
  if (!key || seen.has(key) || !manifest[key]) return;
  seen.add(key);
  for (const imported of manifest[key].imports ?? []) visit(imported);
};
visit(entry);
for (const m of ROUTE_MODULES) visit(m);

const rows = [...seen]
  .map((key) => {
    const file = manifest[key].file;
    const raw = readFileSync(join(dist, file));
    return { file, raw: raw.length, gzip: gzipSync(raw, { level: 9 }).length };
  })
  .filter((r) => r.file.endsWith('.js'))
  .sort((a, b) => b.gzip - a.gzip);
const kb = (n) => (n / 1024).toFixed(1);
for (const r of rows) console.log(`${r.file.padEnd(48)} ${kb(r.raw).padStart(8)} KB ${kb(r.gzip).padStart(8)} KB gz`);
const total = rows.reduce((s, r) => s + r.gzip, 0);
console.log(`login route JavaScript: ${kb(rows.reduce((s, r) => s + r.raw, 0))} KB, ${kb(total)} KB gzipped (budget ${budgetKb} KB)`);
process.exitCode = total > budgetKb * 1024 ? 1 : 0;
