#!/usr/bin/env node
// npm test: typecheck, lint, build, then every test layer (unit, integration, end-to-end).
// Ends with one line 'N passed, N failed'. Exits non-zero on any failure.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
const projects = args.length ? args : ['unit', 'integration', 'e2e'];
let passed = 0;
let failed = 0;
let skipped = 0;

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
  if (!ok && counts.failed === 0) failed++;
} else if (!ok) {
  failed++;
}
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
