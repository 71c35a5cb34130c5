import { describe, expect, it } from 'vitest';
import { BatchedSharedStore, type CounterStore } from './rate-limit.js';

/** A shared counter in memory whose additions wait until the test lets them through (a slow database). */
function slowCounters() {
  const totals = new Map<string, number>();
  const waiting: (() => void)[] = [];
  const store: CounterStore = {
    kind: 'postgres',
    async add(key, n, windowMs) {
      await new Promise<void>((resolve) => waiting.push(resolve));
      const count = (totals.get(key) ?? 0) + n;
      totals.set(key, count);
      return { count, resetAt: Date.now() + windowMs };
    },
    addAll: () => Promise.reject(new Error('not used')),
    reset: () => Promise.resolve(),
  };
  return { store, release: () => waiting.splice(0).forEach((resolve) => resolve()), waiting };
}

describe('the batched counter of the general limit', () => {
  it('counts a batch on its way to the shared store, and the hits that arrive meanwhile', async () => {
    const counters = slowCounters();
    const store = new BatchedSharedStore(counters.store, 60_000, (err) => {
      throw err;
    });
    for (let i = 0; i < 3; i++) store.incr('ip:203.0.113.7');
    const flushed = store.flush();
    // the batch of three is in flight; two more hits arrive meanwhile
    expect(counters.waiting).toHaveLength(1);
    expect(store.incr('ip:203.0.113.7').count).toBe(4);
    expect(store.incr('ip:203.0.113.7').count).toBe(5);
    counters.release();
    await flushed;
    expect(store.incr('ip:203.0.113.7').count).toBe(6);
  });
});
