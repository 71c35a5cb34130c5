import { LRUCache } from 'lru-cache';
import type { Queryable } from '../../db/client.js';
import * as q from './queries.js';
import { SharedCheck } from './shared-check.js';

/** A cached tree is built again after this long even when nothing changed (the change log keeps an hour). */
export const TREE_CACHE_MAX_AGE_MS = 10 * 60_000;
/**
 * Characters of serialized trees kept per instance: V8 keeps this JSON as one byte per character,
 * so about 16 MB, within the portal's memory budget (docs/performance.md, "Memory that comes back").
 * The full tree of 10,000 organizations is ~4.2 M characters.
 */
const MAX_CACHED_CHARS = 16_000_000;

interface Entry {
  /** the pg_snapshot the tree was built after */
  snapshot: string;
  json: string;
  /** when its counts change without a write: a pending invitation expires, or the maximum age */
  validUntil: number;
}

/**
 * Serialized organization trees per subtree root, valid while PostgreSQL has recorded no change
 * of the tree after the snapshot they were built after (0030_organization_tree_changes.sql). One
 * statement checks that per request, so a change made through any instance is seen by the next
 * request on every instance. The tree of 10,000 organizations takes 110–190 ms to build and is
 * 4.2 MB of JSON; administrators load it on every visit of the management page (ADR 005).
 */
export class TreeCache {
  /** the trees, at most MAX_CACHED_CHARS of JSON together, the least recently used going first (a larger tree is not kept) */
  private readonly entries = new LRUCache<string, Entry>({
    maxSize: MAX_CACHED_CHARS,
    sizeCalculation: (entry) => Math.max(1, entry.json.length),
  });
  /**
   * The check of the change log, shared by the requests waiting for it at once (it depends only on
   * the snapshot): under load, a tree read costs a fraction of a statement instead of one, and
   * every request still sees every change committed before it arrived (shared-check.ts).
   */
  private readonly checks = new SharedCheck<string | null, { snapshot: string; changed: boolean }>();

  /** onLookup: told of every lookup, hit or miss (metrics) */
  constructor(private readonly onLookup: (hit: boolean) => void = () => {}) {}

  async get(db: Queryable, rootPath: string, build: () => Promise<unknown>): Promise<string> {
    const cached = this.entries.get(rootPath);
    const since = cached?.snapshot ?? null;
    const { snapshot, changed } = await this.checks.run(since, () => q.treeChangesSince(db, since));
    const hit = cached !== undefined && !changed && Date.now() < cached.validUntil;
    this.onLookup(hit);
    if (cached && hit) return cached.json;
    const startedAt = Date.now();
    const [tree, firstExpiry] = await Promise.all([build(), q.firstPendingInvitationExpiry(db, rootPath)]);
    const json = JSON.stringify(tree);
    this.put(rootPath, { snapshot, json, validUntil: Math.min(startedAt + TREE_CACHE_MAX_AGE_MS, firstExpiry?.getTime() ?? Infinity) });
    return json;
  }

  private put(rootPath: string, entry: Entry): void {
    this.entries.delete(rootPath);
    this.entries.set(rootPath, entry);
  }
}
