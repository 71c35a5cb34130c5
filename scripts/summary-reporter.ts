import { writeFileSync } from 'node:fs';
import type { Reporter, TestCase, TestModule } from 'vitest/node';

/** What scripts/test.mjs reads from VITEST_SUMMARY_FILE. */
export interface Summary {
  passed: number;
  failed: number;
  skipped: number;
  /** why tests were skipped, e.g. '2 needs PostgreSQL: set DATABASE_URL; 1 without a reason' ('' when none was) */
  skipReasons: string;
  /** the tests skipped without a reason (it.skip, it.todo, runIf, another test's .only, a -t filter) */
  skippedWithoutReason: string[];
}

/**
 * Prints the closing line 'N passed, N failed' (and the skipped ones with their reasons, when any)
 * and writes the counts to the file named by VITEST_SUMMARY_FILE, so scripts/test.mjs can add the
 * typecheck and lint steps.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    const summary: Summary = { passed: 0, failed: 0, skipped: 0, skipReasons: '', skippedWithoutReason: [] };
    // the reasons given through ctx.skip(note) (apps/server/test/support/needs.ts), counted
    const reasons = new Map<string, number>();
    for (const module of testModules) {
      let tests = 0;
      for (const test of module.children.allTests() as Iterable<TestCase>) {
        tests++;
        const result = test.result();
        if (result.state === 'passed') summary.passed++;
        else if (result.state === 'failed') summary.failed++;
        else {
          summary.skipped++;
          const note = result.state === 'skipped' ? result.note : undefined;
          if (note) reasons.set(note, (reasons.get(note) ?? 0) + 1);
          else summary.skippedWithoutReason.push(`${module.moduleId}: ${test.fullName}`);
        }
      }
      // a file that failed to load counts as a failure
      if (tests === 0 && module.state() === 'failed') summary.failed++;
    }
    summary.failed += unhandledErrors.length;
    printSlowestFiles(testModules);
    summary.skipReasons = [...reasons]
      .map(([reason, n]) => `${n} ${reason}`)
      .concat(summary.skippedWithoutReason.length ? [`${summary.skippedWithoutReason.length} without a reason`] : [])
      .join('; ');
    const file = process.env.VITEST_SUMMARY_FILE;
    if (file) writeFileSync(file, JSON.stringify(summary));
    else {
      const why = summary.skipReasons ? ` (${summary.skipReasons})` : '';
      console.log(`${summary.passed} passed, ${summary.failed} failed${summary.skipped ? `, ${summary.skipped} skipped${why}` : ''}`);
    }
  }
}

/** The files that took longest (CI time is a budget: .ci/run), so that the next one to split is known. */
function printSlowestFiles(testModules: ReadonlyArray<TestModule>): void {
  const slowest = [...testModules]
    .map((m) => ({ project: m.project.name, file: m.relativeModuleId, seconds: m.diagnostic().duration / 1000 }))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, 15);
  if (slowest.length < 2) return;
  console.log('\nslowest test files:');
  for (const m of slowest) console.log(`${m.seconds.toFixed(0).padStart(5)}s  ${m.project.padEnd(11)} ${m.file}`);
}
