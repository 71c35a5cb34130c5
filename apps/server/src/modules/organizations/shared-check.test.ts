import { describe, expect, it } from 'vitest';
import { SharedCheck } from './shared-check.js';

/** A check whose runs are ended by the test, each answering its run number. */
function controlledCheck() {
  const runs: { n: number; end: (fail?: boolean) => void }[] = [];
  const check = () =>
    new Promise<number>((resolve, reject) => {
      const n = runs.length + 1;
      runs.push({ n, end: (fail) => (fail ? reject(new Error(`run ${n} failed`)) : resolve(n)) });
    });
  return { runs, check };
}
const settle = () => new Promise((r) => setImmediate(r));

describe('SharedCheck', () => {
  it('a lone caller gets a run of its own', async () => {
    const shared = new SharedCheck<string, number>();
    const { runs, check } = controlledCheck();
    const a = shared.run('k', check);
    runs[0]!.end();
    expect(await a).toBe(1);
    const b = shared.run('k', check);
    runs[1]!.end();
    expect(await b).toBe(2);
  });

  it('callers arriving during a run share the next run, never the one that began before them', async () => {
    const shared = new SharedCheck<string, number>();
    const { runs, check } = controlledCheck();
    const first = shared.run('k', check);
    const later = [shared.run('k', check), shared.run('k', check), shared.run('k', check)];
    expect(runs.length).toBe(1);
    runs[0]!.end();
    expect(await first).toBe(1);
    await settle();
    expect(runs.length).toBe(2); // one run for the three that waited
    const afterThat = shared.run('k', check); // arrives while run 2 is in flight: waits for run 3
    runs[1]!.end();
    expect(await Promise.all(later)).toEqual([2, 2, 2]);
    await settle();
    runs[2]!.end();
    expect(await afterThat).toBe(3);
  });

  it('keeps keys apart, and a failed run fails only its own callers', async () => {
    const shared = new SharedCheck<string, number>();
    const { runs, check } = controlledCheck();
    const a = shared.run('a', check);
    const b = shared.run('b', check);
    const aNext = shared.run('a', check);
    expect(runs.length).toBe(2);
    runs[0]!.end(true);
    await expect(a).rejects.toThrow('run 1 failed');
    await settle();
    runs[1]!.end();
    expect(await b).toBe(2);
    runs[2]!.end();
    expect(await aNext).toBe(3);
  });
});
