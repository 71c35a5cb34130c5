// Throughput under load with autocannon (loopback only, bounded duration).
import { assertLoopback } from './http.mjs';
import { fromBench, round } from './util.mjs';

const autocannon = fromBench('autocannon');

/**
 * Run autocannon; `requests` (optional) is a sequence each connection repeats. Returns successful
 * requests per second (2xx only), latency percentiles of all requests, and the status counts.
 */
export async function load({ url, connections, durationSeconds, headers = {}, requests, method = 'GET', body }) {
  assertLoopback(url);
  const result = await autocannon({
    url,
    connections,
    duration: durationSeconds,
    headers,
    method,
    ...(body ? { body } : {}),
    ...(requests ? { requests } : {}),
    timeout: 20,
  });
  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([k, v]) => [k, v.count]));
  return {
    rps: round(result['2xx'] / result.duration, 1),
    total: result.requests.total,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    p50: result.latency.p50,
    p97_5: result.latency.p97_5,
    p99: result.latency.p99,
    statuses,
    durationSeconds: round(result.duration, 2),
  };
}
