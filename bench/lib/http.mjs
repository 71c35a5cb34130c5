// A tiny HTTP client with a cookie jar (loopback only), and a sequential latency sampler.
import http from 'node:http';
import { percentile, round, Unavailable } from './util.mjs';

export function assertLoopback(url) {
  const host = new URL(url).hostname;
  if (host !== '127.0.0.1' && host !== 'localhost' && host !== '::1') throw new Error(`refusing a non-loopback target: ${url}`);
}

export class Client {
  constructor(baseUrl) {
    assertLoopback(baseUrl);
    this.baseUrl = baseUrl;
    this.cookies = new Map();
  }

  cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  store(headers) {
    for (const line of headers.getSetCookie?.() ?? []) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=(0|-)/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /** One request; redirects are not followed. Returns { status, headers, body, text }. */
  async request(method, path, { body, form, headers = {}, basic } = {}) {
    const url = path.startsWith('http') ? path : `${this.baseUrl}${path}`;
    assertLoopback(url);
    const h = { ...headers };
    if (new URL(url).pathname.startsWith('/api')) h['x-csrf'] = '1';
    if (this.cookies.size) h.cookie = this.cookieHeader();
    if (basic)
      h.authorization = `Basic ${Buffer.from(`${encodeURIComponent(basic[0])}:${encodeURIComponent(basic[1])}`).toString('base64')}`;
    let payload;
    if (form) {
      payload = new URLSearchParams(form).toString();
      h['content-type'] = 'application/x-www-form-urlencoded';
    } else if (body !== undefined) {
      payload = JSON.stringify(body);
      h['content-type'] = 'application/json';
    }
    const res = await fetch(url, { method, headers: h, body: payload, redirect: 'manual', signal: AbortSignal.timeout(30_000) });
    this.store(res.headers);
    const text = await res.text();
    let parsed = text;
    if ((res.headers.get('content-type') ?? '').includes('json') && text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  }

  get(path, options) {
    return this.request('GET', path, options);
  }
  post(path, body, options = {}) {
    return this.request('POST', path, { ...options, body });
  }
}

/** 404 / 405 from an endpoint that does not exist yet: the measurement is unavailable, not failed. */
export function requireExists(res, what) {
  if (res.status === 404 || res.status === 405) throw new Unavailable(`unavailable (${res.status}: ${what})`);
}

/**
 * The Cookie header a signed-in browser sends to /api: the session cookie and the session
 * indicator (both Path=/; the device cookie is sent only to the login step, its own path).
 */
export function browserApiCookies(client) {
  return ['pp_session', 'pp_signed_in']
    .filter((name) => client.cookies.has(name))
    .map((name) => `${name}=${client.cookies.get(name)}`)
    .join('; ');
}

/** Sign in as a user through the two-step login; returns the pp_session cookie value. */
export async function signIn(client, email, password) {
  const first = await client.post('/api/identity/email-login', { email });
  requireExists(first, 'POST /api/identity/email-login');
  const res = await client.post('/api/identity/login', { email, password, remember: false });
  requireExists(res, 'POST /api/identity/login');
  const session = client.cookies.get('pp_session');
  if (res.status !== 200 || !session) throw new Error(`login failed: ${res.status} ${res.text.slice(0, 200)}`);
  return session;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One GET over a keep-alive socket; resolves { status, ms, bytes }. */
export function timedGet(url, headers) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const req = http.get(url, { agent, headers, timeout: 30_000 }, (res) => {
      let bytes = 0;
      res.on('data', (c) => (bytes += c.length));
      res.on('end', () => resolve({ status: res.statusCode, ms: Number(process.hrtime.bigint() - start) / 1e6, bytes }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`timeout: ${url}`)));
    req.on('error', reject);
  });
}

/**
 * Sequential latency: `count` GETs one after another (no concurrency: this is latency, not load),
 * stopping early after `maxMs`. pathFor(i) picks the path of the i-th request. Warm-up requests are
 * not counted.
 */
/** `before(i)`, when given, runs before each request, untimed (e.g. a change that ends a cache). */
export async function sampleLatency(baseUrl, pathFor, { count, maxMs, warmup = 3, headers = {}, before }) {
  assertLoopback(baseUrl);
  const h = { 'x-csrf': '1', ...headers };
  for (let i = 0; i < warmup; i++) {
    if (before) await before(i);
    const r = await timedGet(`${baseUrl}${pathFor(i)}`, h);
    if (r.status === 404 || r.status === 405) {
      // a 404 for a real resource and a missing route look alike; the caller decides with a probe
      throw new Unavailable(`unavailable (${r.status}: GET ${pathFor(i).split('?')[0]})`);
    }
  }
  const times = [];
  const startedAt = [];
  const statuses = {};
  let bytes = 0;
  const begin = Date.now();
  const deadline = begin + maxMs;
  for (let i = 0; i < count && Date.now() < deadline; i++) {
    if (before) await before(i);
    startedAt.push(Date.now() - begin);
    const r = await timedGet(`${baseUrl}${pathFor(i)}`, h);
    statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    bytes += r.bytes;
    times.push(r.ms);
  }
  return {
    n: times.length,
    p50: round(percentile(times, 50)),
    p95: round(percentile(times, 95)),
    p99: round(percentile(times, 99)),
    max: round(Math.max(...times)),
    statuses,
    avgBytes: Math.round(bytes / Math.max(1, times.length)),
    /** every request's time (ms) and its start (ms after the first), in order */
    times: times.map(round),
    startedAt,
  };
}
