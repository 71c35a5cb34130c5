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

/** heap V8 keeps committed beyond what is in use that is worth a second, settling collection (bytes) */
export const WORTH_SETTLING_BYTES = 32 * 2 ** 20;

/**
 * Whether to run a full collection now: the loop was quiet, and the heap has grown enough; or a
 * collection ran at the last look (`settleDue`) and V8 still keeps far more heap than is in use.
 * V8 shrinks its young generation and gives back its emptied pages at a collection only once the
 * allocation rate it measured over the last seconds has fallen; at the first quiet look after a
 * burst it has not yet (measured: 62 MB in use, 148 MB kept, 280 MB resident a minute later).
 */
export function shouldCollect(state: {
  utilization: number;
  heapUsed: number;
  heapUsedAfterLastCollection: number;
  heapTotal: number;
  settleDue: boolean;
}): boolean {
  if (state.utilization > QUIET_UTILIZATION) return false;
  if (state.heapUsed - state.heapUsedAfterLastCollection >= WORTH_COLLECTING_BYTES) return true;
  return state.settleDue && state.heapTotal - state.heapUsed >= WORTH_SETTLING_BYTES;
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
  let settleDue = false;
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const { utilization } = performance.eventLoopUtilization(now, last);
    last = now;
    const { heapUsed, heapTotal } = process.memoryUsage();
    if (!shouldCollect({ utilization, heapUsed, heapUsedAfterLastCollection, heapTotal, settleDue })) {
      // a heap that shrank by itself is the new reference
      heapUsedAfterLastCollection = Math.min(heapUsedAfterLastCollection, heapUsed);
      // a settling collection is due only at the quiet look right after a collection
      if (utilization <= QUIET_UTILIZATION) settleDue = false;
      return;
    }
    const started = performance.now();
    gc();
    // after a collection for growth, one settling collection at the next quiet look; not after that one
    settleDue = !settleDue;
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
