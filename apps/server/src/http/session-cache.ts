import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import type { Database } from '../db/client.js';

/**
 * The per-instance cache of sessions and their users (docs/decisions/010-reads-and-grants.md). An
 * authenticated read finds its session here instead of in the database. Every change that alters
 * what a cached session answers (logout, a session ended elsewhere, removal, rights, organization,
 * password, profile) is announced by the database's triggers (migration 0050) from the transaction
 * that makes it; every instance drops the entries of the users named. Backstops: an entry lives at
 * most `ttlMs`, never past its session's expiry, and while this instance cannot hear announcements
 * (its listening connection is lost) it caches nothing and answers every read from the database.
 */
export interface SessionCacheOptions<T = unknown> {
  /** longest life of an entry (ms); 0 turns the cache off */
  ttlMs: number;
  maxEntries: number;
  /** bytes the entries may hold together, by `sizeOf` (default: entries are not weighed) */
  maxBytes?: number;
  /** an entry's weight in bytes (default: approximateSize) */
  sizeOf?: (value: T) => number;
  onLookup?: (hit: boolean) => void;
  now?: () => number;
}

interface Entry<T> {
  value: T;
  userId: string;
  until: number;
  bytes: number;
}

/**
 * What a cached value holds in memory, roughly: two bytes per character of its JSON (V8 keeps
 * the strings and the object's fields about that large; a session user's answer, made once from
 * it, is as long again as one-byte text) and a fixed part for the entry and its indexes.
 */
export function approximateSize(value: unknown): number {
  return 2 * (JSON.stringify(value)?.length ?? 0) + 256;
}

/** Drop everything: an announcement for many users, or an organization's change. */
export const ALL = '*';

export class SessionCache<T> {
  /**
   * The entries, at most maxEntries and maxBytes by weight (lru-cache: the least recently used go
   * first; an entry heavier than maxBytes is not kept); each removal also leaves the user's index.
   */
  private readonly entries: LRUCache<string, Entry<T>>;
  private readonly byUser = new Map<string, Set<string>>();
  /** bumped at every invalidation: a load that began before one is not kept */
  private generation = 0;
  /** announcements reach this instance; while not, nothing is cached */
  private listening = false;
  private readonly now: () => number;

  constructor(private readonly options: SessionCacheOptions<T>) {
    this.now = options.now ?? Date.now;
    this.entries = new LRUCache<string, Entry<T>>({
      max: Math.max(1, options.maxEntries),
      ...(options.maxBytes !== undefined
        ? { maxSize: options.maxBytes, sizeCalculation: (entry: Entry<T>) => Math.max(1, entry.bytes) }
        : {}),
      dispose: (entry, key) => {
        const keys = this.byUser.get(entry.userId);
        keys?.delete(key);
        if (keys?.size === 0) this.byUser.delete(entry.userId);
      },
    });
  }

  get enabled(): boolean {
    return this.options.ttlMs > 0 && this.listening;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The entries' weight together (bytes, by sizeOf), 0 when entries are not weighed. */
  get weight(): number {
    return this.options.maxBytes === undefined ? 0 : this.entries.calculatedSize;
  }

  /** The cached value of a session, or undefined (a miss; counted only while the cache is on). */
  get(key: string): T | undefined {
    if (!this.enabled) return undefined;
    const entry = this.entries.get(key);
    if (entry && entry.until > this.now()) {
      this.options.onLookup?.(true);
      return entry.value;
    }
    if (entry) this.entries.delete(key);
    this.options.onLookup?.(false);
    return undefined;
  }

  /** Take before loading; pass to set(), which keeps the value only if nothing was invalidated meanwhile. */
  ticket(): number {
    return this.generation;
  }

  set(key: string, userId: string, value: T, expiresAtMs: number, ticket: number): void {
    if (!this.enabled || ticket !== this.generation) return;
    const until = Math.min(this.now() + this.options.ttlMs, expiresAtMs);
    this.entries.delete(key);
    const { maxBytes } = this.options;
    const bytes = maxBytes === undefined ? 0 : (this.options.sizeOf ?? approximateSize)(value);
    if (maxBytes !== undefined && bytes > maxBytes) return;
    this.entries.set(key, { value, userId, until, bytes });
    const keys = this.byUser.get(userId) ?? new Set<string>();
    this.byUser.set(userId, keys.add(key));
  }

  /** Drop one session's entry (this instance ended it). */
  delete(key: string): void {
    this.generation++;
    this.entries.delete(key);
  }

  /** Drop the entries of these users, or every entry. */
  invalidate(userIds: readonly string[] | typeof ALL): void {
    this.generation++;
    if (userIds === ALL) {
      this.entries.clear();
      this.byUser.clear();
      return;
    }
    for (const userId of userIds) {
      for (const key of [...(this.byUser.get(userId) ?? [])]) this.entries.delete(key);
      this.byUser.delete(userId);
    }
  }

  /** Announcements reach this instance (true) or no longer do (false: everything is dropped). */
  setListening(listening: boolean): void {
    if (!listening) this.invalidate(ALL);
    this.listening = listening;
  }
}

/** "<pid>|<ids>" or "<pid>|*" (migration 0050): the users named, or ALL. */
export function parseAnnouncement(payload: string): string[] | typeof ALL | null {
  const bar = payload.indexOf('|');
  const body = bar >= 0 ? payload.slice(bar + 1) : payload;
  if (body === ALL) return ALL;
  const ids = body.split(',').filter((id) => id.length > 0);
  return ids.length ? ids : null;
}

const CHANNEL = 'pp_session_cache';
/** the Redis channel (REDIS_URL) */
export const REDIS_CHANNEL = 'pp:session-cache';

/**
 * Connect caches to the announcements. On PostgreSQL (and PGlite) a LISTEN connection of this
 * instance's own hears every change made anywhere. With Redis, the instances hold no LISTEN
 * connection each: an instance publishes on Redis what its own transactions changed (its pool
 * connections hear their own announcements at commit) and drops what the others publish. Returns
 * a stop function.
 */
export async function connectSessionCache(
  caches: SessionCache<unknown>[],
  db: Database,
  options: { redis?: Redis | null; onError?: (err: Error) => void; reconnectDelayMs?: number } = {},
): Promise<() => Promise<void>> {
  const apply = (payload: string) => {
    const target = parseAnnouncement(payload);
    if (target) for (const cache of caches) cache.invalidate(target);
  };
  const cache = { setListening: (listening: boolean) => caches.forEach((c) => c.setListening(listening)) };
  const redis = db.kind === 'postgres' ? options.redis : null;
  if (!redis) {
    return db.listen(CHANNEL, (payload) => apply(payload), {
      dedicated: true,
      onState: (listening) => cache.setListening(listening),
      ...(options.reconnectDelayMs ? { reconnectDelayMs: options.reconnectDelayMs } : {}),
    });
  }
  const subscriber = redis.duplicate();
  subscriber.on('error', (err: Error) => options.onError?.(err));
  subscriber.on('message', (_channel: string, payload: string) => apply(payload));
  // a lost subscription drops the cache at once; it comes back once subscribed again
  subscriber.on('close', () => cache.setListening(false));
  subscriber.on('ready', () => {
    subscriber
      .subscribe(REDIS_CHANNEL)
      .then(() => cache.setListening(true))
      .catch((err: unknown) => options.onError?.(err instanceof Error ? err : new Error(String(err))));
  });
  const stop = await db.listen(CHANNEL, (payload, own) => {
    apply(payload);
    if (own)
      redis.publish(REDIS_CHANNEL, payload).catch((err: unknown) => options.onError?.(err instanceof Error ? err : new Error(String(err))));
  });
  return async () => {
    await stop();
    cache.setListening(false);
    subscriber.disconnect();
  };
}
