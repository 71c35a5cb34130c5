// Audit streams: how long an audit entry takes from its change's commit to its arrival at the
// stream's collector, under a steady stream of audited changes. The collector (a Splunk HTTP Event
// Collector as the portal sees one) runs in the bench process on 127.0.0.1 (the portal runs with
// OUTBOUND_ALLOW_PRIVATE_NETWORKS).
import http from 'node:http';
import { Client, requireExists } from './http.mjs';
import { freePort } from './processes.mjs';
import { percentile, round, sleep } from './util.mjs';

const TOKEN = 'bench-hec-token';
const CHILDREN = 20;

/** A Splunk HEC collector answering 200 at once; each event kept with its arrival time (after checking the token). */
async function startCollector() {
  const events = []; // { at, id, occurredAt }
  let refused = 0;
  const port = await freePort();
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      if (req.headers.authorization !== `Splunk ${TOKEN}`) {
        refused++;
        res.writeHead(401).end();
        return;
      }
      for (const line of Buffer.concat(chunks).toString('utf8').split('\n')) {
        const { event } = JSON.parse(line);
        events.push({ at, id: event.id, occurredAt: Date.parse(event.occurred_at), action: event.action, requestId: event.request_id });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"text":"Success","code":0}');
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    events,
    get refused() {
      return refused;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}

/**
 * The delay from an audited change to its entry's arrival at `rate` changes per second for
 * `seconds`: a splunk_hec stream of an organization of its own, and the administrator switching
 * "may create sub-organizations" off again and again (always audited, one entry each) for its 20
 * children in turn (no row shared between changes), sent on a fixed schedule whatever the answers (open loop). The delay of an entry is
 * its arrival at the collector minus its `occurred_at`, which PostgreSQL takes at the start of the
 * change's transaction (so the delay is at most that much longer than from the commit).
 */
export async function streamDelay({ baseUrl, adminCookie, rootId, rate, seconds }) {
  const client = new Client(baseUrl);
  client.cookies.set('pp_session', adminCookie);
  const collector = await startCollector();
  let streamId;
  let organizationId;
  try {
    const tag = Date.now().toString(36);
    const made = await client.post('/api/organizations', {
      parent_organization_id: rootId,
      name: `Bench audit ${tag}`,
      client_ids: [],
      can_create_sub_organization: true,
    });
    if (made.status !== 201) throw new Error(`creating the organization: ${made.status} ${made.text.slice(0, 200)}`);
    organizationId = made.body.id;
    const stream = await client.post(`/api/organizations/${organizationId}/audit-streams`, {
      kind: 'splunk_hec',
      url: `${collector.url}/services/collector/event`,
      token: TOKEN,
    });
    requireExists(stream, 'POST /api/organizations/{id}/audit-streams');
    if (stream.status !== 201) throw new Error(`making the stream: ${stream.status} ${stream.text.slice(0, 200)}`);
    streamId = stream.body.id;
    // the organizations changed in turn, below the stream's: changes that contend for no row
    const children = [];
    for (let i = 0; i < CHILDREN; i++) {
      const child = await client.post('/api/organizations', { parent_organization_id: organizationId, name: `Part ${i}`, client_ids: [] });
      if (child.status !== 201) throw new Error(`creating an organization: ${child.status} ${child.text.slice(0, 200)}`);
      children.push(child.body.id);
    }
    const action = 'organization.can_create_sub_organizations.update';
    const pathOf = (i) => `/api/organizations/${children[i % CHILDREN]}/can-create-sub-organizations?canCreateSubOrganizations=false`;
    const total = Math.round(rate * seconds);
    const statuses = {};
    const requests = [];
    const answers = [];
    const answeredAt = new Map();
    const started = Date.now();
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / rate;
      const wait = due - Date.now();
      if (wait > 0) await sleep(wait);
      const sent = Date.now();
      requests.push(
        client
          .request('PATCH', pathOf(i))
          .then((r) => {
            statuses[r.status] = (statuses[r.status] ?? 0) + 1;
            answers.push(Date.now() - sent);
            answeredAt.set(r.headers.get('x-request-id'), Date.now());
          })
          .catch(() => (statuses.error = (statuses.error ?? 0) + 1)),
      );
    }
    const scheduledSeconds = (Date.now() - started) / 1000;
    await Promise.all(requests);
    const accepted = statuses[204] ?? 0;
    const ofChanges = () => collector.events.filter((e) => e.action === action);
    const deadline = Date.now() + 30_000;
    while (new Set(ofChanges().map((e) => e.id)).size < accepted && Date.now() < deadline) await sleep(50);
    const unique = new Map();
    for (const e of ofChanges()) if (!unique.has(e.id)) unique.set(e.id, e);
    const delays = [...unique.values()].map((e) => e.at - e.occurredAt);
    // the lag from the answer (after the commit): a lower bound, where the one from occurred_at is an upper one
    const fromAnswer = [...unique.values()].filter((e) => answeredAt.has(e.requestId)).map((e) => e.at - answeredAt.get(e.requestId));
    // entries that came after one with a higher id: written by transactions at the same time, the later id committed first
    const ids = [...unique.keys()].map(Number);
    const overtaken = ids.filter((id, i) => i > 0 && id < Math.max(...ids.slice(0, i))).length;
    return {
      rate,
      changes: total,
      achievedRate: round(total / scheduledSeconds, 1),
      statuses,
      accepted,
      delivered: unique.size,
      duplicates: ofChanges().length - unique.size,
      overtaken,
      refused: collector.refused,
      answerP50: round(percentile(answers, 50), 1),
      answerP99: round(percentile(answers, 99), 1),
      fromAnswerP50: round(percentile(fromAnswer, 50), 1),
      fromAnswerP99: round(percentile(fromAnswer, 99), 1),
      p50: round(percentile(delays, 50), 1),
      p99: round(percentile(delays, 99), 1),
      max: round(Math.max(...delays), 1),
    };
  } finally {
    if (streamId) await client.request('DELETE', `/api/organizations/${organizationId}/audit-streams/${streamId}`).catch(() => undefined);
    await collector.close();
  }
}
