#!/usr/bin/env node
// npm test: the build (the web app's beside the contracts' and the server's), then the typecheck
// (then prettier) and eslint side by side, then the test layers (unit, then integration and
// end-to-end side by side; vitest.config.ts). The checks run before the tests, not
// beside them: on two cores, lint beside the browser tests starved them until steps timed out. The
// checks' output is held and printed when they end. Ends with one line 'N passed, N failed' (and 'N skipped
// (why)' when tests were skipped) and the time each part took. Exits non-zero on any failure; a
// test skipped without a reason (it.skip, .only, runIf…) is one: every test runs or says why not
// (apps/server/test/support/needs.ts).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
const projects = args.length ? args : ['unit', 'integration', 'e2e'];
const started = Date.now();
const timings = [];

/** Run a command; `hold` keeps its output and prints it once it ends (for what runs beside the tests). */
function run(name, command, commandArgs, { env = {}, hold = false } = {}) {
  const begun = Date.now();
  if (!hold) console.log(`\n▶ ${name}: ${command} ${commandArgs.join(' ')}`);
  return new Promise((resolve) => {
    const child = spawn(command, commandArgs, { stdio: hold ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: { ...process.env, ...env } });
    const output = [];
    child.stdout?.on('data', (chunk) => output.push(chunk));
    child.stderr?.on('data', (chunk) => output.push(chunk));
    child.on('close', (status) => {
      const ok = status === 0;
      const seconds = Math.round((Date.now() - begun) / 1000);
      timings.push(`${String(seconds).padStart(5)}s  ${name}`);
      if (hold) {
        console.log(`\n▶ ${name}: ${command} ${commandArgs.join(' ')}`);
        process.stdout.write(Buffer.concat(output));
      }
      console.log(`${ok ? '✔' : '✘'} ${name} (${seconds}s)`);
      resolve(ok);
    });
  });
}

/** The machine's CPU time so far, busy and in all (jiffies, from /proc/stat; undefined off Linux). */
function machineCpu() {
  if (!existsSync('/proc/stat')) return undefined;
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  // idle and iowait are the 4th and 5th fields
  return { busy: total - fields[3] - fields[4], total };
}

let passed = 0;
let failed = 0;
const count = (ok) => (ok ? passed++ : failed++);

// the end-to-end tests serve the web build, and some integration tests start the built server.
// `npm run build` in two lanes: the web app's build (vite; it reads the contracts' source, not
// their build) beside the contracts' then the server's (tsc -b): one after the other left a core idle
const buildLanes = await Promise.all([
  (async () => [
    await run('build contracts', 'npm', ['run', '--silent', 'build', '-w', '@partner-portal/contracts'], { hold: true }),
    await run('build server', 'npm', ['run', '--silent', 'build', '-w', '@partner-portal/server'], { hold: true }),
  ])(),
  run('build web', 'npm', ['run', '--silent', 'build', '-w', '@partner-portal/web'], { hold: true }),
]);
// one step in the closing count, as before
count(buildLanes.flat().every(Boolean));

const summaryFile = join(tmpdir(), `vitest-summary-${process.pid}.json`);
rmSync(summaryFile, { force: true });
// `npm run lint` in two lanes beside the typecheck: eslint in one, the typecheck then prettier in
// the other (each about 80 s of one core; eslint then prettier after each other left a core idle)
const lanes = await Promise.all([
  (async () => [
    await run('typecheck', 'npm', ['run', '--silent', 'typecheck'], { hold: true }),
    await run('format', 'npx', ['prettier', '--check', '--log-level', 'warn', '.'], { hold: true }),
  ])(),
  run('lint', 'npx', ['eslint', '--max-warnings=0', '.'], { hold: true }),
]);
for (const ok of lanes.flat()) count(ok);
const cpuBefore = machineCpu();
const testsOk = await run('tests', 'npx', ['vitest', 'run', ...projects.flatMap((p) => ['--project', p])], {
  env: { VITEST_SUMMARY_FILE: summaryFile },
});

const cpuAfter = machineCpu();

let skipped = 0;
let skipReasons = '';
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
  if (!testsOk && counts.failed === 0) failed++;
} else if (!testsOk) {
  failed++;
}
console.log(`\ntime per part (typecheck with format, and lint, side by side before the tests):\n${timings.join('\n')}`);
console.log(`${String(Math.round((Date.now() - started) / 1000)).padStart(5)}s  in all`);
if (cpuBefore && cpuAfter) {
  // near 100%: the tests wait for the CPU, and only less work shortens them; well below: they wait
  // on timers and the browser, and more workers (TEST_WORKERS) would
  const busy = (cpuAfter.busy - cpuBefore.busy) / (cpuAfter.total - cpuBefore.total);
  console.log(`the machine's CPU was ${Math.round(busy * 100)}% busy during the tests (${cpus().length} cores)`);
}
const why = skipReasons ? ` (${skipReasons})` : '';
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped${why}` : ''}`);
process.exit(failed > 0 ? 1 : 0);
