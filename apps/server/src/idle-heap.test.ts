import { describe, expect, it } from 'vitest';
import { QUIET_UTILIZATION, shouldCollect, WORTH_COLLECTING_BYTES } from './idle-heap.js';

const MB = 2 ** 20;

describe('collecting the heap when idle', () => {
  it('collects when the loop was quiet and the heap grew enough since the last collection', () => {
    expect(shouldCollect({ utilization: 0.01, heapUsed: 60 * MB + WORTH_COLLECTING_BYTES, heapUsedAfterLastCollection: 60 * MB })).toBe(
      true,
    );
    expect(shouldCollect({ utilization: QUIET_UTILIZATION, heapUsed: 250 * MB, heapUsedAfterLastCollection: 60 * MB })).toBe(true);
  });

  it('leaves a busy instance alone, however much its heap grew', () => {
    expect(shouldCollect({ utilization: 0.5, heapUsed: 400 * MB, heapUsedAfterLastCollection: 60 * MB })).toBe(false);
    expect(shouldCollect({ utilization: QUIET_UTILIZATION + 0.01, heapUsed: 400 * MB, heapUsedAfterLastCollection: 60 * MB })).toBe(false);
  });

  it('leaves a quiet instance alone when its heap has not grown enough', () => {
    expect(shouldCollect({ utilization: 0, heapUsed: 60 * MB + WORTH_COLLECTING_BYTES - 1, heapUsedAfterLastCollection: 60 * MB })).toBe(
      false,
    );
  });
});
