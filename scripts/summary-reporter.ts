import { writeFileSync } from 'node:fs';
import type { Reporter, TestCase, TestModule } from 'vitest/node';

/**
 * Prints the closing line 'N passed, N failed' (and skipped, when any) and writes the counts to
 * the file named by VITEST_SUMMARY_FILE, so scripts/test.mjs can add the typecheck and lint steps.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      let tests = 0;
      for (const test of module.children.allTests() as Iterable<TestCase>) {
        tests++;
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      // a file that failed to load counts as a failure
      if (tests === 0 && module.state() === 'failed') failed++;
    }
    failed += unhandledErrors.length;
    const file = process.env.VITEST_SUMMARY_FILE;
    if (file) writeFileSync(file, JSON.stringify({ passed, failed, skipped }));
    else console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  }
}
