#!/usr/bin/env node
// npm test: typecheck, lint, build, then every test layer (unit, integration, end-to-end).
// Ends with one line 'N passed, N failed' (and 'N skipped (why)' when tests were skipped). Exits
// non-zero on any failure; a test skipped without a reason (it.skip, .only, runIf…) is one: every
// test runs or says why not (apps/server/test/support/needs.ts).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
const projects = args.length ? args : ['unit', 'integration', 'e2e'];
let passed = 0;
let failed = 0;
let skipped = 0;
let skipReasons = '';

function step(name, command, commandArgs, env = {}) {
  console.log(`\n▶ ${name}: ${command} ${commandArgs.join(' ')}`);
  const result = spawnSync(command, commandArgs, { stdio: 'inherit', env: { ...process.env, ...env } });
  const ok = result.status === 0;
  console.log(`${ok ? '✔' : '✘'} ${name}`);
  return ok;
}

for (const [name, script] of [
  ['typecheck', 'typecheck'],
  ['lint', 'lint'],
  ['build', 'build'],
]) {
  if (step(name, 'npm', ['run', '--silent', script])) passed++;
  else failed++;
}

const summaryFile = join(tmpdir(), `vitest-summary-${process.pid}.json`);
rmSync(summaryFile, { force: true });
const ok = step('tests', 'npx', ['vitest', 'run', ...projects.flatMap((p) => ['--project', p])], { VITEST_SUMMARY_FILE: summaryFile });
if (existsSync(summaryFile)) {
  const counts = JSON.parse(readFileSync(summaryFile, 'utf8'));
  passed += counts.passed;
  failed += counts.failed;
  skipped += counts.skipped;
  skipReasons = counts.skipReasons;
  if (counts.skippedWithoutReason.length) {
    console.log(`\n✘ skipped without a reason:\n  ${counts.skippedWithoutReason.join('\n  ')}`);
    failed += counts.skippedWithoutReason.length;
  }
  if (!ok && counts.failed === 0) failed++;
} else if (!ok) {
  failed++;
}
const why = skipReasons ? ` (${skipReasons})` : '';
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped${why}` : ''}`);
process.exit(failed > 0 ? 1 : 0);
