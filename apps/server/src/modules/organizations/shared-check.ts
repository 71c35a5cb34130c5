/**
 * One run of a check shared by everyone who asks while the previous run is in flight, without
 * ever answering with a run that began before the caller asked: a caller that finds a run in
 * flight waits for the next one, which starts when that one ends and serves every caller that
 * arrived meanwhile. Under load, N concurrent callers cost about two runs instead of N; a lone
 * caller costs one run, as without it.
 */
export class SharedCheck<K, V> {
  private readonly running = new Map<K, Promise<V>>();
  private readonly queued = new Map<K, Promise<V>>();

  run(key: K, check: () => Promise<V>): Promise<V> {
    const queued = this.queued.get(key);
    if (queued) return queued;
    const running = this.running.get(key);
    if (!running) return this.start(key, check);
    const next = running.then(
      () => this.startQueued(key, check),
      () => this.startQueued(key, check),
    );
    this.queued.set(key, next);
    return next;
  }

  private startQueued(key: K, check: () => Promise<V>): Promise<V> {
    this.queued.delete(key);
    return this.start(key, check);
  }

  private start(key: K, check: () => Promise<V>): Promise<V> {
    const run = check().finally(() => {
      if (this.running.get(key) === run) this.running.delete(key);
    });
    this.running.set(key, run);
    return run;
  }
}
