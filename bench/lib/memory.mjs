// Memory that comes back: a burst of the portal's heaviest everyday work (password logins,
// authenticated reads, organization-tree rebuilds, refresh grants), then a minute of idle, with the
// portal's resident memory (/proc/<pid>/status) and its V8 heap (GET /metrics, the portal started
// with METRICS_ENABLED=true) read before the burst, right after it and when the minute is over.
import { readFileSync } from 'node:fs';
import { browserApiCookies, Client, signIn } from './http.mjs';
import { load } from './load.mjs';
import { prepareRefreshTokens, refreshChains } from './oidc.mjs';
import { log, memoryOf, round, sleep } from './util.mjs';

/** The portal's V8 heap and external memory in MB, from its Prometheus metrics (null when /metrics is off). */
export async function heapOf(baseUrl) {
  try {
    const res = await fetch(`${baseUrl}/metrics`, { signal: AbortSignal.timeout(10_000) });
    if (res.status !== 200) return null;
    const text = await res.text();
    const value = (name) => {
      const m = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+]+)$`, 'm').exec(text);
      return m ? round(Number(m[1]) / 2 ** 20) : null;
    };
    return {
      heapUsedMb: value('nodejs_heap_size_used_bytes'),
      heapTotalMb: value('nodejs_heap_size_total_bytes'),
      externalMb: value('nodejs_external_memory_bytes'),
    };
  } catch {
    return null;
  }
}

/** RSS, peak and heap of the portal now. */
export async function snapshot(portal) {
  return { ...memoryOf(portal.pid, readFileSync), heap: await heapOf(portal.baseUrl) };
}

/**
 * The burst: `seconds` of password logins at `loginConcurrency`, of user-info reads and of the
 * organization page at 50 connections, `treeRebuilds` trees each right after a change of the tree
 * (an organization created under the root: every cached tree ends), and `seconds` of refresh
 * grants on `chains` chains. Returns what each part answered.
 */
export async function burst({ baseUrl, dcrToken, email, password, rootId, seconds, loginConcurrency, treeRebuilds, chains }) {
  const done = {};
  const headers = { 'content-type': 'application/json', 'x-csrf': '1' };
  const logins = await load({
    url: baseUrl,
    connections: loginConcurrency,
    durationSeconds: seconds,
    requests: [
      { method: 'POST', path: '/api/identity/email-login', headers, body: JSON.stringify({ email }) },
      { method: 'POST', path: '/api/identity/login', headers, body: JSON.stringify({ email, password, remember: false }) },
    ],
  });
  done.logins = logins.ok / 2;

  const client = new Client(baseUrl);
  await signIn(client, email, password);
  const cookies = { cookie: browserApiCookies(client), 'x-csrf': '1' };
  const reads = await load({ url: `${baseUrl}/api/identity/user-info`, connections: 50, durationSeconds: seconds, headers: cookies });
  const pages = await load({ url: `${baseUrl}/api/organizations/${rootId}`, connections: 50, durationSeconds: seconds, headers: cookies });
  done.reads = reads.ok + pages.ok;

  let trees = 0;
  let treeBytes = 0;
  for (let i = 0; i < treeRebuilds; i++) {
    const created = await client.post('/api/organizations', {
      parent_organization_id: rootId,
      name: `Memory ${Date.now()}-${i}`,
      client_ids: [],
    });
    if (created.status !== 201) throw new Error(`create organization: ${created.status} ${created.text.slice(0, 200)}`);
    // the browser's request: brotli, like every administrator's visit of the management page
    const tree = await fetch(`${baseUrl}/api/organizations/tree`, {
      headers: { ...cookies, 'accept-encoding': 'br, gzip' },
      signal: AbortSignal.timeout(60_000),
    });
    const body = await tree.arrayBuffer();
    if (tree.status !== 200) throw new Error(`tree: ${tree.status}`);
    trees += 1;
    treeBytes = body.byteLength;
  }
  done.treeRebuilds = trees;
  done.treeKb = round(treeBytes / 1024);

  const prepared = await prepareRefreshTokens({ baseUrl, dcrToken, email, password, chains });
  const grants = await refreshChains(baseUrl, prepared.meta, prepared.registered, prepared.tokens, seconds);
  if (grants.errors) log(`memory burst: ${grants.errors} refresh errors: ${grants.errorSamples.join(' | ')}`);
  done.refreshGrants = grants.grants;
  return done;
}

/**
 * Before, right after, and `settleSeconds` after the burst (sampled every 10 s, to see how it
 * comes down). Returns { before, after, settled, series, done }.
 */
export async function memoryAfterBurst(portal, options, settleSeconds = 60) {
  const before = await snapshot(portal);
  const started = Date.now();
  const done = await burst(options);
  done.seconds = round((Date.now() - started) / 1000);
  const after = await snapshot(portal);
  const series = [];
  for (let t = 10; t <= settleSeconds; t += 10) {
    await sleep(10_000);
    series.push({ seconds: t, ...memoryOf(portal.pid, readFileSync) });
  }
  const settled = await snapshot(portal);
  return { before, after, settled, series, done };
}
