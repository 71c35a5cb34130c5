import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/**
 * The built server (apps/server/dist/main.js) as a child process, the way it runs in production:
 * its JSON log lines on stdout are kept, and those of level error or worse are counted.
 */
export const MAIN_JS = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
export const ADMIN_EMAIL = 'admin@example.com';
export const ADMIN_PASSWORD = 'Admin-Passw0rd!';

export function assertBuilt(): void {
  if (!existsSync(MAIN_JS))
    throw new Error(`${MAIN_JS} is missing: run npm run build (or npx tsc -b apps/server/tsconfig.build.json) first`);
}

export interface LogLine {
  level?: number;
  msg?: string;
  [k: string]: unknown;
}

export interface ServerProcess {
  port: number;
  url: string;
  child: ChildProcess;
  pid: number;
  /** parsed JSON log lines */
  logs: LogLine[];
  /** stdout lines that were not JSON, and stderr */
  text: string[];
  /** log lines of level error (50) or worse */
  errors(): LogLine[];
  exited: Promise<number | null>;
  /** SIGTERM and wait */
  stop(): Promise<void>;
  /** SIGKILL, no clean-up at all */
  kill9(): Promise<void>;
}

/**
 * Start the built server. `nodeFlags` go before the script (V8 flags such as --trace-gc, which
 * NODE_OPTIONS refuses); what they print lands in `text`.
 */
export function spawnServer(env: Record<string, string>, options: { nodeFlags?: string[] } = {}): ServerProcess {
  assertBuilt();
  const port = Number(env.PORT);
  const child = spawn(process.execPath, [...(options.nodeFlags ?? []), MAIN_JS], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      BOOTSTRAP_ADMIN_EMAIL: ADMIN_EMAIL,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN_PASSWORD,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: LogLine[] = [];
  const text: string[] = [];
  let buffer = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (!line.trim()) continue;
      try {
        logs.push(JSON.parse(line) as LogLine);
      } catch {
        text.push(line);
      }
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => text.push(...chunk.split('\n').filter(Boolean)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))));
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    child,
    pid: child.pid!,
    logs,
    text,
    errors: () => logs.filter((l) => (l.level ?? 0) >= 50),
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    async kill9() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * The live heap, in MB, after each full collection (Mark-Compact) that --trace-gc printed from
 * line `from` of `text` on: what the program still holds, without the heap V8 keeps reserved and
 * the allocator's pages that resident memory also counts.
 */
export function liveHeapAfterFullCollections(text: string[], from = 0): number[] {
  const fullCollection = /Mark-Compact(?: \([a-z ]+\))? [\d.]+ \([\d.]+\) -> ([\d.]+) \([\d.]+\) MB/;
  return text
    .slice(from)
    .map((line) => fullCollection.exec(line)?.[1])
    .filter((mb): mb is string => mb !== undefined)
    .map(Number);
}

/** Wait until GET /health answers the status (200 by default). */
export async function waitForHealth(
  url: string,
  options: { status?: number; timeoutMs?: number; server?: ServerProcess } = {},
): Promise<void> {
  const want = options.status ?? 200;
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  let last = '';
  while (Date.now() < deadline) {
    if (options.server && options.server.child.exitCode !== null) {
      throw new Error(
        `the server exited (${options.server.child.exitCode}) before /health answered ${want}:\n${options.server.text.slice(-20).join('\n')}\n${JSON.stringify(options.server.logs.slice(-5))}`,
      );
    }
    try {
      const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(3000) });
      last = String(res.status);
      if (res.status === want) return;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`/health of ${url} did not answer ${want} in time (last: ${last})`);
}

/** Resident memory of a process in kB (Linux /proc). */
export function rssKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

/** Sign in with e-mail and password; returns the session cookie ("pp_session=…"). */
export async function login(baseUrl: string, email = ADMIN_EMAIL, password = ADMIN_PASSWORD): Promise<string> {
  const res = await fetch(`${baseUrl}/api/identity/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf': '1' },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('pp_session='));
  if (!cookie) throw new Error('login set no pp_session cookie');
  return cookie.split(';')[0]!;
}

/** A JSON API call with X-CSRF and an optional cookie. */
export async function api(
  baseUrl: string,
  method: string,
  path: string,
  options: { cookie?: string; body?: unknown; timeoutMs?: number } = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      'x-csrf': '1',
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
    signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body, headers: res.headers };
}

/** One statement on its own connection (for checks against the database the servers use). */
export async function sql<T extends object>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}
