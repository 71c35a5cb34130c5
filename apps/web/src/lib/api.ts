import type { Problem } from '@partner-portal/contracts';

/**
 * The API client (docs/product.md, "Calls"): every call to /api carries X-CSRF: 1 and the cookies.
 * Failures become ApiError with the problem details; retries follow docs/product.md, "Calls": at most 3, honouring
 * Retry-After on 429 and 503, otherwise exponential from 1 s (capped at 64 s) on 5xx and 408,
 * except 501 and 505.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem | null,
    /** the answer's Retry-After header (a 429 or 503), if any */
    readonly retryAfter: string | null = null,
  ) {
    super(problem?.detail ?? problem?.title ?? `HTTP ${status}`);
    this.name = 'ApiError';
  }

  /** the translation key of the problem, if any */
  get key(): string | undefined {
    return this.problem?.i18NTranslationKey;
  }
}

export interface ApiOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null>;
  signal?: AbortSignal;
  /** retries on retryable failures (default 3; 0 for calls that must not repeat) */
  retries?: number;
}

const RETRYABLE = (status: number) => status === 408 || status === 429 || (status >= 500 && status !== 501 && status !== 505);

/** How long a Retry-After header says to wait, in milliseconds (seconds or an HTTP date); null when absent or unreadable. */
export function retryAfterMs(retryAfter: string | null): number | null {
  if (!retryAfter) return null;
  const seconds = Number(retryAfter);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(retryAfter);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : null;
}

export function retryDelayMs(status: number, attempt: number, retryAfter: string | null): number {
  const wait = status === 429 || status === 503 ? retryAfterMs(retryAfter) : null;
  return Math.min(wait ?? 1000 * 2 ** attempt, 64_000);
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      reject(signal.reason as Error);
    });
  });

export async function apiRequest<T>(method: string, path: string, options: ApiOptions = {}): Promise<T> {
  const url = new URL(path.startsWith('/api') ? path : `/api${path}`, window.location.origin);
  for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
  const retries = options.retries ?? (method === 'GET' ? 3 : 0);
  for (let attempt = 0; ; attempt++) {
    const headers: Record<string, string> = { 'X-CSRF': '1', Accept: 'application/json' };
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(url, {
      method,
      headers,
      credentials: 'same-origin',
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
    if (response.ok) {
      if (response.status === 204) return undefined as T;
      const text = await response.text();
      return (text ? JSON.parse(text) : undefined) as T;
    }
    if (attempt < retries && RETRYABLE(response.status)) {
      await sleep(retryDelayMs(response.status, attempt, response.headers.get('Retry-After')), options.signal);
      continue;
    }
    let problem: Problem | null = null;
    try {
      problem = (await response.json()) as Problem;
    } catch {
      problem = null;
    }
    throw new ApiError(response.status, problem, response.headers.get('Retry-After'));
  }
}

export const api = {
  get: <T>(path: string, options?: Omit<ApiOptions, 'body'>) => apiRequest<T>('GET', path, options),
  post: <T = void>(path: string, body?: unknown, options?: ApiOptions) => apiRequest<T>('POST', path, { ...options, body }),
  put: <T = void>(path: string, body?: unknown, options?: ApiOptions) => apiRequest<T>('PUT', path, { ...options, body }),
  patch: <T = void>(path: string, body?: unknown, options?: ApiOptions) => apiRequest<T>('PATCH', path, { ...options, body }),
  delete: <T = void>(path: string, options?: ApiOptions) => apiRequest<T>('DELETE', path, options),
};
