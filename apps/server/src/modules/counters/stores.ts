import type { Redis } from 'ioredis';
import type { Database } from '../../db/client.js';
import type { CounterStore } from '../../http/rate-limit.js';
import { addToCounters, deleteCounter, deleteEndedCounters } from './queries.js';

/**
 * The two homes of the counters shared by every instance (http/rate-limit.ts CounterStore):
 * PostgreSQL's rate_limits, or Redis when REDIS_URL is set (main.ts chooses).
 */

export function postgresCounterStore(db: Database): CounterStore {
  let lastSweep = 0;
  const sweep = () => {
    const now = Date.now();
    if (now - lastSweep > 60_000) {
      lastSweep = now;
      void deleteEndedCounters(db).catch(() => undefined);
    }
  };
  const store: CounterStore = {
    kind: 'postgres',
    async add(key, n, windowMs) {
      return (await store.addAll([key], n, windowMs))[0]!;
    },
    // one upsert for one key or several (counterAddSql), so the counting rule is written once
    async addAll(keys, n, windowMs) {
      const rows = await addToCounters(db, [...new Set(keys)], n, windowMs);
      sweep();
      const byKey = new Map(rows.map((r) => [r.key, { count: r.hits, resetAt: new Date(r.reset_at).getTime() }]));
      return keys.map((k) => byKey.get(k)!);
    },
    async reset(key) {
      await deleteCounter(db, key);
    },
  };
  return store;
}

export function redisCounterStore(redis: Redis): CounterStore {
  const store: CounterStore = {
    kind: 'redis',
    async add(key, n, windowMs) {
      return (await store.addAll([key], n, windowMs))[0]!;
    },
    // one MULTI for all keys: one round trip, applied at once
    async addAll(keys, n, windowMs) {
      const multi = redis.multi();
      for (const key of keys) multi.incrby(`pp:rl:${key}`, n).pexpire(`pp:rl:${key}`, windowMs, 'NX').pttl(`pp:rl:${key}`);
      const result = await multi.exec();
      return Promise.all(
        keys.map(async (key, i) => {
          let count = Number(result?.[i * 3]?.[1] ?? n);
          const ttl = Number(result?.[i * 3 + 2]?.[1] ?? windowMs);
          const left = ttl > 0 ? ttl : windowMs;
          if (count < 0) {
            // a hit given back after its window ended: never below 0
            await redis.set(`pp:rl:${key}`, 0, 'PX', left);
            count = 0;
          }
          return { count, resetAt: Date.now() + left };
        }),
      );
    },
    async reset(key) {
      await redis.del(`pp:rl:${key}`);
    },
  };
  return store;
}
