import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SEED_DEMO = fileURLToPath(new URL('../../dist/cli/seed-demo.js', import.meta.url));

/** npm run seed:demo while the portal runs on the embedded database: a clear way out, no stack trace. */
describe('seed:demo on an embedded database held by the running portal', () => {
  it('says which process holds it and what to do, and exits with 1', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pp-seed-'));
    // this test process stands in for the running portal
    writeFileSync(join(dataDir, 'pglite.lock'), String(process.pid));
    const run = spawnSync(process.execPath, [SEED_DEMO], {
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`the portal (process ${process.pid}) is running on the embedded database`);
    expect(run.stderr).toMatch(/stop the portal/);
    expect(run.stderr).toMatch(/DATABASE_URL/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  }, 90_000);
});
