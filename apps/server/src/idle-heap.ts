import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Logger } from 'pino';

/**
 * The heap given back when the instance falls quiet (docs/performance.md, "Memory that comes
 * back"). A burst of work (logins, reads, the 4 MB organization tree built again and again,
 * refresh grants) leaves V8's heap full of garbage, and with no allocation after it V8 has no
 * reason to collect: measured, 206 MB of heap in use a minute after a burst, 58 MB of it alive.
 * Every few seconds this looks at the event loop's use since the last look and at the heap; when
 * the loop was nearly idle and the heap has grown well past what was alive after the last full
 * collection, it runs one full collection, and V8 returns the emptied pages to the system. A
 * busy instance is never interrupted by it (it collects as it goes anyway), and an idle one that
 * has not grown is left alone.
 */
export const IDLE_HEAP_CHECK_MS = 5000;
/** at most this share of the last interval spent working counts as quiet */
export const QUIET_UTILIZATION = 0.05;
/** growth of the heap in use since the last full collection that is worth collecting (bytes) */
export const WORTH_COLLECTING_BYTES = 8 * 2 ** 20;

/** Whether to run a full collection now: the loop was quiet and the heap has grown enough. */
export function shouldCollect(state: { utilization: number; heapUsed: number; heapUsedAfterLastCollection: number }): boolean {
  return state.utilization <= QUIET_UTILIZATION && state.heapUsed - state.heapUsedAfterLastCollection >= WORTH_COLLECTING_BYTES;
}

/** V8's full collection, made callable once at start (the flag only exposes it to new contexts). */
function fullCollection(): (() => void) | null {
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? (gc as () => void) : null;
  } catch {
    return null;
  }
}

/** Start watching; returns the function that stops it. */
export function startIdleHeapCollector(log: Logger, intervalMs = IDLE_HEAP_CHECK_MS): () => void {
  const gc = fullCollection();
  if (!gc) {
    log.warn('the heap cannot be collected when idle: this Node.js does not expose its collector');
    return () => {};
  }
  let heapUsedAfterLastCollection = process.memoryUsage().heapUsed;
  let last = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const { utilization } = performance.eventLoopUtilization(now, last);
    last = now;
    const heapUsed = process.memoryUsage().heapUsed;
    if (!shouldCollect({ utilization, heapUsed, heapUsedAfterLastCollection })) {
      // a heap that shrank by itself is the new reference
      heapUsedAfterLastCollection = Math.min(heapUsedAfterLastCollection, heapUsed);
      return;
    }
    const started = performance.now();
    gc();
    heapUsedAfterLastCollection = process.memoryUsage().heapUsed;
    last = performance.eventLoopUtilization();
    log.debug(
      { heapUsedBefore: heapUsed, heapUsedAfter: heapUsedAfterLastCollection, ms: Math.round(performance.now() - started) },
      'heap collected while idle',
    );
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
