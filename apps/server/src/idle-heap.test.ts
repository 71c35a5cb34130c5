import { describe, expect, it } from 'vitest';
import { QUIET_UTILIZATION, shouldCollect, WORTH_COLLECTING_BYTES, WORTH_SETTLING_BYTES } from './idle-heap.js';

const MB = 2 ** 20;

describe('collecting the heap when idle', () => {
  it('collects when the loop was quiet and the heap grew enough since the last collection', () => {
    expect(
      shouldCollect({
        utilization: 0.01,
        heapUsed: 60 * MB + WORTH_COLLECTING_BYTES,
        heapUsedAfterLastCollection: 60 * MB,
        heapTotal: 400 * MB,
        settleDue: false,
      }),
    ).toBe(true);
    expect(
      shouldCollect({
        utilization: QUIET_UTILIZATION,
        heapUsed: 250 * MB,
        heapUsedAfterLastCollection: 60 * MB,
        heapTotal: 400 * MB,
        settleDue: false,
      }),
    ).toBe(true);
  });

  it('leaves a busy instance alone, however much its heap grew', () => {
    expect(
      shouldCollect({ utilization: 0.5, heapUsed: 400 * MB, heapUsedAfterLastCollection: 60 * MB, heapTotal: 400 * MB, settleDue: false }),
    ).toBe(false);
    expect(
      shouldCollect({
        utilization: QUIET_UTILIZATION + 0.01,
        heapUsed: 400 * MB,
        heapUsedAfterLastCollection: 60 * MB,
        heapTotal: 400 * MB,
        settleDue: false,
      }),
    ).toBe(false);
  });

  it('leaves a quiet instance alone when its heap has not grown enough', () => {
    expect(
      shouldCollect({
        utilization: 0,
        heapUsed: 60 * MB + WORTH_COLLECTING_BYTES - 1,
        heapUsedAfterLastCollection: 60 * MB,
        heapTotal: 400 * MB,
        settleDue: false,
      }),
    ).toBe(false);
  });

  it('collects once more at the quiet look after a collection while V8 keeps far more heap than is in use', () => {
    const settled = { utilization: 0.01, heapUsed: 62 * MB, heapUsedAfterLastCollection: 62 * MB };
    expect(shouldCollect({ ...settled, heapTotal: 62 * MB + WORTH_SETTLING_BYTES, settleDue: true })).toBe(true);
    // not when what V8 keeps is close to what is in use, not when no collection just ran, not when busy
    expect(shouldCollect({ ...settled, heapTotal: 62 * MB + WORTH_SETTLING_BYTES - 1, settleDue: true })).toBe(false);
    expect(shouldCollect({ ...settled, heapTotal: 148 * MB, settleDue: false })).toBe(false);
    expect(shouldCollect({ ...settled, utilization: QUIET_UTILIZATION + 0.01, heapTotal: 148 * MB, settleDue: true })).toBe(false);
  });
});
