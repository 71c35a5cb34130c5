import { describe, expect, it } from 'vitest';
import { ALL, approximateSize, parseAnnouncement, SessionCache } from './session-cache.js';

function cache(now: { t: number }, options: { ttlMs?: number; maxEntries?: number; maxBytes?: number } = {}) {
  const lookups: boolean[] = [];
  const c = new SessionCache<string>({
    ttlMs: options.ttlMs ?? 1000,
    maxEntries: options.maxEntries ?? 10,
    ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes, sizeOf: (value: string) => value.length }),
    onLookup: (hit) => lookups.push(hit),
    now: () => now.t,
  });
  c.setListening(true);
  return { c, lookups };
}

describe('SessionCache', () => {
  it('keeps an entry for its life, never past the session expiry, and counts hits and misses', () => {
    const now = { t: 0 };
    const { c, lookups } = cache(now);
    c.set('a', 'u1', 'A', 500, c.ticket());
    c.set('b', 'u2', 'B', 10_000, c.ticket());
    expect(c.get('a')).toBe('A');
    now.t = 600;
    expect(c.get('a')).toBeUndefined(); // the session expired
    expect(c.get('b')).toBe('B');
    now.t = 1001;
    expect(c.get('b')).toBeUndefined(); // the cache's own life
    expect(lookups).toEqual([true, false, true, false]);
  });

  it('drops the entries of the users announced, or all', () => {
    const { c } = cache({ t: 0 });
    c.set('a1', 'u1', 'A1', 10_000, c.ticket());
    c.set('a2', 'u1', 'A2', 10_000, c.ticket());
    c.set('b', 'u2', 'B', 10_000, c.ticket());
    c.invalidate(['u1']);
    expect([c.get('a1'), c.get('a2'), c.get('b')]).toEqual([undefined, undefined, 'B']);
    c.invalidate(ALL);
    expect(c.size).toBe(0);
  });

  it('does not keep a load that began before an invalidation', () => {
    const { c } = cache({ t: 0 });
    const ticket = c.ticket();
    c.invalidate(['u1']); // the change arrives while the row is being read
    c.set('a', 'u1', 'old row', 10_000, ticket);
    expect(c.get('a')).toBeUndefined();
  });

  it('caches nothing while it cannot hear announcements, and drops what it had', () => {
    const { c } = cache({ t: 0 });
    c.set('a', 'u1', 'A', 10_000, c.ticket());
    c.setListening(false);
    expect(c.size).toBe(0);
    c.set('a', 'u1', 'A', 10_000, c.ticket());
    expect(c.get('a')).toBeUndefined();
    c.setListening(true);
    c.set('a', 'u1', 'A', 10_000, c.ticket());
    expect(c.get('a')).toBe('A');
  });

  it('holds at most maxBytes by the weight of its entries, the oldest going first; an entry heavier than the whole is not kept', () => {
    const { c } = cache({ t: 0 }, { maxEntries: 100, maxBytes: 10 });
    c.set('a', 'u1', 'aaaa', 10_000, c.ticket());
    c.set('b', 'u2', 'bbbb', 10_000, c.ticket());
    expect(c.weight).toBe(8);
    c.set('c', 'u3', 'cccc', 10_000, c.ticket()); // 12 > 10: a goes
    expect([c.get('a'), c.get('b'), c.get('c')]).toEqual([undefined, 'bbbb', 'cccc']);
    expect(c.weight).toBe(8);
    c.set('d', 'u4', 'dddddddd', 10_000, c.ticket()); // b and c go
    expect([c.size, c.weight, c.get('d')]).toEqual([1, 8, 'dddddddd']);
    c.set('e', 'u5', 'e'.repeat(11), 10_000, c.ticket());
    expect([c.get('e'), c.get('d')]).toEqual([undefined, 'dddddddd']);
    c.invalidate(['u4']);
    expect([c.size, c.weight]).toEqual([0, 0]);
    for (const key of 'fghijklmnop') c.set(key, `user-${key}`, key.repeat(3), 10_000, c.ticket());
    expect([c.size, c.weight]).toEqual([3, 9]);
  });

  it('weighs a value by its JSON when told nothing else', () => {
    expect(approximateSize({ email: 'a@example.com' })).toBe(2 * JSON.stringify({ email: 'a@example.com' }).length + 256);
  });

  it('holds at most maxEntries, the oldest going first', () => {
    const { c } = cache({ t: 0 }, { maxEntries: 2 });
    for (const k of ['a', 'b', 'c']) c.set(k, `u-${k}`, k, 10_000, c.ticket());
    expect([c.get('a'), c.get('b'), c.get('c')]).toEqual([undefined, 'b', 'c']);
  });
});

describe('parseAnnouncement', () => {
  it('reads the payload of the triggers', () => {
    expect(parseAnnouncement('123|a,b')).toEqual(['a', 'b']);
    expect(parseAnnouncement('123|*')).toBe(ALL);
    expect(parseAnnouncement('123|')).toBeNull();
  });
});
