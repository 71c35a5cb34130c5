// Webhooks: how many deliveries the portal's sender makes per second, and how long an event takes
// from the change's commit to its arrival at a receiver, under a steady stream of changes. The
// receivers run in the bench process on 127.0.0.1 (the portal runs with OUTBOUND_ALLOW_PRIVATE_NETWORKS).
import http from 'node:http';
import { Client, requireExists, signIn } from './http.mjs';
import { freePort, pgClient } from './processes.mjs';
import { cpuSecondsOf, fromServer, percentile, round, sleep } from './util.mjs';

const { Webhook } = fromServer('standardwebhooks');

/**
 * A receiver answering 204 at once to every path. With `verify`, each body is checked with the
 * standardwebhooks package against the secret of its path (hook()), as an application would.
 */
export async function startReceiver() {
  const secrets = new Map();
  const arrivals = new Map(); // path → [{ at, body, valid }]
  let total = 0;
  const port = await freePort();
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const path = req.url;
      const hook = secrets.get(path);
      const body = Buffer.concat(chunks).toString('utf8');
      let valid = null;
      if (hook?.verify) {
        try {
          new Webhook(hook.secret).verify(body, req.headers);
          valid = true;
        } catch {
          valid = false;
        }
      }
      total++;
      if (hook?.keep) {
        if (!arrivals.has(path)) arrivals.set(path, []);
        arrivals.get(path).push({ at, body, valid, id: req.headers['webhook-id'] });
      }
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    hook: (path, secret, options = {}) => secrets.set(path, { secret, verify: false, keep: false, ...options }),
    arrivals: (path) => arrivals.get(path) ?? [],
    get total() {
      return total;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}

async function subscribe(client, organizationId, receiver, path, events, options) {
  const res = await client.post(`/api/organizations/${organizationId}/webhooks`, { url: `${receiver.url}${path}`, events });
  requireExists(res, 'POST /api/organizations/{id}/webhooks');
  if (res.status !== 201) throw new Error(`subscribing ${path}: ${res.status} ${res.text.slice(0, 200)}`);
  receiver.hook(path, res.body.secret, options);
  return res.body.id;
}

/**
 * Deliveries per second: `count` deliveries queued for `webhooks` subscriptions (written straight
 * into the outbox, not yet due), made due at once with one NOTIFY, and timed until the receiver has
 * them all. Also the portal's CPU seconds meanwhile (its deliveries per CPU-second).
 */
export async function deliveryThroughput({ baseUrl, adminCookie, rootId, databaseUrl, portalPid, readFileSync, count, webhooks = 4 }) {
  const client = new Client(baseUrl);
  client.cookies.set('pp_session', adminCookie);
  const receiver = await startReceiver();
  const ids = [];
  const db = await pgClient(databaseUrl);
  try {
    for (let i = 0; i < webhooks; i++) ids.push(await subscribe(client, rootId, receiver, `/throughput/${i}`, ['organization.updated']));
    const payload = JSON.stringify({
      type: 'organization.updated',
      timestamp: new Date().toISOString(),
      data: { organization_id: rootId, name: 'Bench', path: 'bench', parent_id: null, changed: ['name'] },
    });
    await db.query(
      `INSERT INTO outbox (kind, webhook_id, payload, next_attempt_at)
       SELECT 'webhook', ($1::uuid[])[1 + g % cardinality($1::uuid[])],
              jsonb_build_object('event_type', 'organization.updated', 'organization_id', $2::uuid, 'body', $3::text), now() + interval '1 hour'
       FROM generate_series(1, $4) AS g`,
      [ids, rootId, payload, count],
    );
    await db.query('VACUUM ANALYZE outbox');
    const cpuBefore = cpuSecondsOf(portalPid, readFileSync);
    const started = Date.now();
    await db.query(`UPDATE outbox SET next_attempt_at = now() WHERE webhook_id = ANY($1::uuid[])`, [ids]);
    await db.query("SELECT pg_notify('pp_webhooks', '')");
    const deadline = started + 240_000;
    while (receiver.total < count && Date.now() < deadline) await sleep(20);
    const seconds = (Date.now() - started) / 1000;
    const cpu = cpuSecondsOf(portalPid, readFileSync) - cpuBefore;
    await sleep(500);
    const { rows } = await db.query('SELECT state, count(*)::int AS n FROM outbox WHERE webhook_id = ANY($1::uuid[]) GROUP BY state', [
      ids,
    ]);
    return {
      count,
      received: receiver.total,
      seconds: round(seconds, 2),
      perSecond: round(receiver.total / seconds, 1),
      portalCpuSeconds: round(cpu, 2),
      perPortalCpuSecond: round(receiver.total / Math.max(cpu, 0.001), 1),
      states: Object.fromEntries(rows.map((r) => [r.state, r.n])),
      webhooks,
    };
  } finally {
    for (const id of ids) await client.request('DELETE', `/api/organizations/${rootId}/webhooks/${id}`).catch(() => undefined);
    await db.end();
    await receiver.close();
  }
}

const MEMBERS = 20;

/**
 * The delay from a change to its delivery at `rate` changes per second for `seconds`: each change
 * is a member's new name (PUT /api/identity/update-profile, one member.updated event), made in
 * turn by 20 members of an organization of their own, signed in (changes that contend for no row),
 * sent on a fixed schedule whatever the answers (open loop). The delay of an event is its arrival
 * at the receiver minus its `timestamp`, which the portal takes in the change's transaction just
 * before its last statement and the commit. Every signature is verified.
 */
export async function deliveryDelay({ baseUrl, adminCookie, rootId, databaseUrl, adminEmail, password, rate, seconds }) {
  const client = new Client(baseUrl);
  client.cookies.set('pp_session', adminCookie);
  const receiver = await startReceiver();
  let hookId;
  let organizationId;
  const db = await pgClient(databaseUrl);
  try {
    const tag = Date.now().toString(36);
    const made = await client.post('/api/organizations', { parent_organization_id: rootId, name: `Bench webhooks ${tag}`, client_ids: [] });
    if (made.status !== 201) throw new Error(`creating the organization: ${made.status} ${made.text.slice(0, 200)}`);
    organizationId = made.body.id;
    // members with the administrator's password (its hash), each signed in through the login
    const { rows } = await db.query(
      `WITH org AS (SELECT id, path FROM organizations WHERE id = $1),
            made AS (
              INSERT INTO users (email, first_name, last_name, language_code, password_hash, terms_accepted_at, password_changed_at)
              SELECT 'bench-webhooks-' || $2 || '-' || g || '@example.com', 'Bench', 'Member', 'en',
                     (SELECT password_hash FROM users WHERE lower(email) = lower($3)), now(), now()
              FROM generate_series(1, $4) AS g RETURNING id, email)
       INSERT INTO memberships (organization_id, user_id, email, organization_path, rights)
       SELECT org.id, made.id, made.email, org.path, '{}' FROM made, org RETURNING email`,
      [organizationId, tag, adminEmail, MEMBERS],
    );
    const members = [];
    for (const { email } of rows) {
      const member = new Client(baseUrl);
      await signIn(member, email, password);
      members.push(member);
    }
    hookId = await subscribe(client, organizationId, receiver, '/delay', ['member.updated'], { verify: true, keep: true });
    const total = Math.round(rate * seconds);
    const statuses = {};
    const requests = [];
    const answers = [];
    const started = Date.now();
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / rate;
      const wait = due - Date.now();
      if (wait > 0) await sleep(wait);
      const sent = Date.now();
      requests.push(
        members[i % members.length]
          .request('PUT', '/api/identity/update-profile', { body: { first_name: `Bench ${i}`, last_name: 'Member', language_code: 'en' } })
          .then((r) => {
            statuses[r.status] = (statuses[r.status] ?? 0) + 1;
            answers.push(Date.now() - sent);
          })
          .catch(() => (statuses.error = (statuses.error ?? 0) + 1)),
      );
    }
    const scheduledSeconds = (Date.now() - started) / 1000;
    await Promise.all(requests);
    const accepted = statuses[204] ?? 0;
    const deadline = Date.now() + 30_000;
    while (receiver.arrivals('/delay').length < accepted && Date.now() < deadline) await sleep(50);
    const arrivals = receiver.arrivals('/delay');
    const unique = new Map(arrivals.map((a) => [a.id, a]));
    const delays = [...unique.values()].map((a) => a.at - Date.parse(JSON.parse(a.body).timestamp));
    return {
      rate,
      changes: total,
      achievedRate: round(total / scheduledSeconds, 1),
      statuses,
      accepted,
      delivered: unique.size,
      duplicates: arrivals.length - unique.size,
      invalidSignatures: arrivals.filter((a) => a.valid === false).length,
      answerP50: round(percentile(answers, 50), 1),
      answerP99: round(percentile(answers, 99), 1),
      p50: round(percentile(delays, 50), 1),
      p99: round(percentile(delays, 99), 1),
      max: round(Math.max(...delays), 1),
    };
  } finally {
    if (hookId) await client.request('DELETE', `/api/organizations/${organizationId}/webhooks/${hookId}`).catch(() => undefined);
    await db.end();
    await receiver.close();
  }
}
