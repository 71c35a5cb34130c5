import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const contracts = fileURLToPath(new URL('./packages/contracts/src/index.ts', import.meta.url));
// the server's test kit for the end-to-end tests (apps/server/package.json, "exports")
const serverTestKit = fileURLToPath(new URL('./apps/server/test/support/index.ts', import.meta.url));
/**
 * Test files run at once (TEST_WORKERS; 1 runs them one after another). The integration and e2e
 * projects share one group (sequence.groupOrder), and vitest gives a group one pool of that many
 * workers for both projects together. Four: their files mostly wait (on Chromium, timers, SMTP and
 * the database), so on two cores two at a time left the CPU half idle (scripts/test.mjs prints how
 * busy it was).
 */
const workers = Number(process.env.TEST_WORKERS ?? 4);
const alias = { '@partner-portal/contracts': contracts, '@partner-portal/server/test-kit': serverTestKit };

/**
 * Test layers (CONVENTIONS.md §9): unit tests beside the code; integration tests of the real
 * server over HTTP against a real database and SMTP sink; end-to-end tests in Chromium; and the
 * resilience suite (faults, scale, load). `npm test` runs the first three.
 */
export default defineConfig({
  test: {
    reporters: ['default', './scripts/summary-reporter.ts'],
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          sequence: { groupOrder: 0 },
          environment: 'node',
          include: ['packages/*/src/**/*.test.ts', 'apps/server/src/**/*.test.ts', 'apps/web/src/**/*.test.ts', 'scripts/**/*.test.ts'],
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'integration',
          // the files of a worker share their imports (the server's modules load once per worker, not
          // once per file); each file still starts its own portal on its own database
          isolate: false,
          sequence: { groupOrder: 1 },
          environment: 'node',
          include: ['apps/server/test/**/*.test.ts'],
          globalSetup: ['apps/server/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
          maxWorkers: workers,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          isolate: false,
          // beside the integration tests: both spend much of their time waiting (on Chromium, timers, SMTP)
          sequence: { groupOrder: 1 },
          environment: 'node',
          include: ['e2e/tests/**/*.test.ts'],
          globalSetup: ['apps/server/test/global-setup.ts'],
          // two minutes: with four files at once on two busy cores a browser step is ~8× slower than
          // alone, and flows of 10–15 s alone ran past one minute in CI
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // what the browser does after a step (focus moved, a value filled in) can take more than
          // expect.poll's default second while the CPU is busy with the other test files
          expect: { poll: { timeout: 10_000 } },
          pool: 'forks',
          maxWorkers: workers,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'resilience',
          sequence: { groupOrder: 3 },
          environment: 'node',
          include: ['apps/server/test-resilience/**/*.test.ts'],
          globalSetup: ['apps/server/test/global-setup.ts'],
          testTimeout: 300_000,
          hookTimeout: 120_000,
          pool: 'forks',
          maxWorkers: 1,
          fileParallelism: false,
        },
      },
    ],
  },
});
