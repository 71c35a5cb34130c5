import { useEffect, useSyncExternalStore } from 'react';

/**
 * The first page's answers without TanStack Query (docs/decisions/022-login-and-manage-bundles.md):
 * the login route reads the session, the site settings and its address's context through this
 * small store, so that the query client and its library load with the other views. Each answer is
 * asked for once per page load (`load`), the entry starts the login route's own before anything
 * renders (`apps/web/src/main.tsx`), and `put` replaces one: the query client keeps the session's
 * here current once it exists (`apps/web/src/lib/query-client.ts`).
 */
interface Entry {
  promise?: Promise<unknown>;
  state: AnswerState<unknown>;
}

export interface AnswerState<T> {
  data: T | undefined;
  /** no answer yet (not asked, or on its way) */
  isPending: boolean;
}

const PENDING: AnswerState<never> = { data: undefined, isPending: true };
const entries = new Map<string, Entry>();
const listeners = new Set<() => void>();

function entry(key: string): Entry {
  let found = entries.get(key);
  if (!found) entries.set(key, (found = { state: PENDING }));
  return found;
}

function settle(key: string, state: AnswerState<unknown>): void {
  entry(key).state = state;
  for (const listener of listeners) listener();
}

/** The answer of `key`, asked for with `fetch` the first time only; a failure is not kept (the next call asks again). */
export function load<T>(key: string, fetch: () => Promise<T>): Promise<T> {
  const found = entry(key);
  if (!found.promise) {
    const promise = fetch();
    found.promise = promise;
    promise.then(
      (data) => settle(key, { data, isPending: false }),
      () => {
        if (found.promise === promise) found.promise = undefined;
        settle(key, { data: undefined, isPending: false });
      },
    );
  }
  return found.promise as Promise<T>;
}

/** Replaces the answer of `key` (a newer one, known elsewhere). */
export function put<T>(key: string, data: T): void {
  entry(key).promise = Promise.resolve(data);
  settle(key, { data, isPending: false });
}

/** The answer of `key` as it stands. */
export function peek<T>(key: string): AnswerState<T> {
  return (entries.get(key)?.state ?? PENDING) as AnswerState<T>;
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The answer of `key` in a component, asked for when it is not yet (and `key` is not null). */
export function useAnswer<T>(key: string | null, fetch: () => Promise<T>): AnswerState<T> {
  useEffect(() => {
    if (key !== null) void load(key, fetch).catch(() => undefined);
    // `fetch` belongs to `key`: a new function for the same key asks nothing new
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  // pending on the server and while a pre-rendered page hydrates, as the page was rendered
  // (docs/decisions/021-pre-rendered-public-pages.md); the answer as it stands after that
  return useSyncExternalStore(
    subscribe,
    () => (key === null ? PENDING : peek<T>(key)),
    () => PENDING,
  );
}
