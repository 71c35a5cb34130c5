// Refresh grants: register a client (DCR), obtain refresh tokens through the real authorization
// code flow (login through the portal's own API, PKCE), then run parallel refresh chains.
import { createHash, randomBytes } from 'node:crypto';
import { assertLoopback, Client, requireExists } from './http.mjs';
import { fromBench, round, Unavailable } from './util.mjs';

const autocannon = fromBench('autocannon');

const b64url = (buf) => buf.toString('base64url');

export async function discover(client) {
  const res = await client.get('/.well-known/openid-configuration');
  requireExists(res, 'GET /.well-known/openid-configuration');
  if (res.status !== 200) throw new Error(`discovery: ${res.status}`);
  return res.body;
}

export async function registerClient(client, meta, initialAccessToken, redirectUri, extraMetadata = {}) {
  const endpoint = meta.registration_endpoint ?? `${client.baseUrl}/connect/dcr`;
  const res = await client.request('POST', endpoint, {
    headers: { authorization: `Bearer ${initialAccessToken}` },
    body: {
      client_name: 'Partner Portal bench',
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      scope: 'openid offline_access email profile',
      ...extraMetadata,
    },
  });
  requireExists(res, 'POST /connect/dcr');
  if (res.status !== 201 && res.status !== 200) throw new Error(`DCR: ${res.status} ${res.text.slice(0, 300)}`);
  return res.body;
}

/**
 * One authorization code flow through the portal: authorize → /login?ReturnUrl → email-login +
 * login (or consent when already signed in) → back to the provider → redirect_uri?code=…, then the
 * code is exchanged. Reuses the client's cookies (a second flow needs no password).
 */
export async function authorize(client, meta, registered, redirectUri, { email, password }) {
  const verifier = b64url(randomBytes(32));
  const challenge = b64url(createHash('sha256').update(verifier).digest());
  const state = b64url(randomBytes(12));
  const params = new URLSearchParams({
    client_id: registered.client_id,
    response_type: 'code',
    redirect_uri: redirectUri,
    scope: 'openid offline_access',
    prompt: 'consent',
    state,
    nonce: b64url(randomBytes(12)),
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  let next = `${meta.authorization_endpoint}?${params}`;
  let logins = 0;
  const trail = [];
  for (let hop = 0; hop < 25; hop++) {
    const url = new URL(next, client.baseUrl);
    trail.push(`${url.pathname}`);
    if (url.href.startsWith(redirectUri)) {
      const code = url.searchParams.get('code');
      if (!code) throw new Error(`authorization failed: ${url.search}`);
      if (url.searchParams.get('state') !== state) throw new Error('state mismatch');
      return exchange(client, meta, registered, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        code_verifier: verifier,
      });
    }
    if (url.pathname === '/login' || url.pathname === '/consent') {
      const returnUrl = url.searchParams.get('ReturnUrl') ?? url.searchParams.get('returnUrl') ?? '';
      let res;
      if (logins === 0 && url.pathname === '/login') {
        await client.post('/api/identity/email-login', { email, return_url: returnUrl });
        res = await client.post('/api/identity/login', { email, password, remember: false, return_url: returnUrl });
      } else {
        res = await client.post('/api/identity/consent', { deny: false, remember: true, return_url: returnUrl });
      }
      logins += 1;
      requireExists(res, 'identity login/consent');
      if (res.status !== 200 || !res.body?.valid_return_url)
        throw new Error(`interaction step ${url.pathname}: ${res.status} ${res.text.slice(0, 300)}`);
      next = res.body.valid_return_url;
      continue;
    }
    const res = await client.get(url.href, { headers: { accept: 'text/html' } });
    if (res.status >= 300 && res.status < 400 && res.headers.get('location')) {
      next = res.headers.get('location');
      continue;
    }
    throw new Error(`authorization stopped at ${url.pathname} with ${res.status}: ${res.text.slice(0, 300)} (trail ${trail.join(' → ')})`);
  }
  throw new Error(`authorization: too many redirects (${trail.join(' → ')})`);
}

async function exchange(client, meta, registered, form) {
  const res = registered.client_secret
    ? await client.request('POST', meta.token_endpoint, { form, basic: [registered.client_id, registered.client_secret] })
    : await client.request('POST', meta.token_endpoint, { form: { ...form, client_id: registered.client_id } });
  if (res.status !== 200) throw new Error(`token endpoint: ${res.status} ${res.text.slice(0, 300)}`);
  return res.body;
}

/**
 * One chain per refresh token, run by autocannon for `seconds`: each of its connections sends
 * refresh_token grants one after another, each with the refresh token the previous answer rotated
 * to (a token taken from the pool when a request is built, the new one put back when its answer
 * comes). Counts successful grants per second. autocannon (raw sockets, as for every other load
 * row) rather than fetch: on the two cores the portal shares with its load, fetch's own CPU was a
 * third of a core at these rates (bench/README.md).
 */
export async function refreshChains(baseUrl, meta, registered, tokens, seconds) {
  const url = new URL(meta.token_endpoint, baseUrl);
  assertLoopback(url.href);
  const headers = { 'content-type': 'application/x-www-form-urlencoded' };
  if (registered.client_secret) {
    const id = encodeURIComponent(registered.client_id);
    headers.authorization = `Basic ${Buffer.from(`${id}:${encodeURIComponent(registered.client_secret)}`).toString('base64')}`;
  }
  const pool = [...tokens];
  const errorSamples = [];
  let grants = 0;
  const result = await autocannon({
    url: url.origin,
    connections: tokens.length,
    duration: seconds,
    timeout: 20,
    requests: [
      {
        method: 'POST',
        path: url.pathname,
        headers,
        setupRequest(request, context) {
          context.token = pool.pop() ?? 'no-token-left';
          const form = { grant_type: 'refresh_token', refresh_token: context.token };
          if (!registered.client_secret) form.client_id = registered.client_id;
          return { ...request, body: new URLSearchParams(form).toString() };
        },
        onResponse(status, body) {
          if (status === 200) {
            grants += 1;
            pool.push(JSON.parse(body).refresh_token);
          } else if (errorSamples.length < 3) errorSamples.push(`${status} ${String(body).slice(0, 200)}`);
        },
      },
    ],
  });
  const errors = result.non2xx + result.errors + result.timeouts;
  return {
    grantsPerSecond: round(grants / result.duration, 1),
    grants,
    errors,
    errorSamples,
    seconds: round(result.duration, 2),
    p50: result.latency.p50,
    p99: result.latency.p99,
  };
}

export async function prepareRefreshTokens({ baseUrl, dcrToken, email, password, chains, clientMetadata = {} }) {
  const client = new Client(baseUrl);
  const meta = await discover(client);
  const redirectUri = `${baseUrl}/bench-callback`;
  const registered = await registerClient(client, meta, dcrToken, redirectUri, clientMetadata);
  const tokens = [];
  for (let i = 0; i < chains; i++) {
    const t = await authorize(client, meta, registered, redirectUri, { email, password });
    if (!t.refresh_token) throw new Unavailable('unavailable (no refresh_token issued for offline_access)');
    tokens.push(t.refresh_token);
  }
  return { meta, registered, tokens };
}
