import { createServer, type IncomingHttpHeaders } from 'node:http';
import { freePort, type TestPortal } from '../support/portal.js';
import { startAuditStreamWorker, type AuditStreamWorker } from '../../src/modules/audit-streams/worker.js';
import type { LaneOptions } from '../../src/outbox/worker.js';
import type { Services } from '../../src/services.js';

/**
 * A log collector on 127.0.0.1 as Splunk's HTTP Event Collector and Datadog's logs intake take
 * requests: every request kept with its headers and body; each path answers with its own status
 * (set per request). `events(path)` reads the entries the requests carried, in the order they came:
 * HEC's concatenated event objects (after checking `Authorization: Splunk <token>` and the shape),
 * Datadog's JSON array of logs (after checking `DD-API-KEY`).
 */
export interface Collected {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
}

export interface Collector {
  url: string;
  requests: Collected[];
  /** how the path answers its n-th request (from 0) */
  answer(path: string, status: (n: number) => number): void;
  close(): Promise<void>;
}

export async function startCollector(): Promise<Collector> {
  const requests: Collected[] = [];
  const answers = new Map<string, (n: number) => number>();
  const counts = new Map<string, number>();
  const port = await freePort();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      const path = req.url ?? '/';
      const n = counts.get(path) ?? 0;
      counts.set(path, n + 1);
      const status = answers.get(path)?.(n) ?? 200;
      requests.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), status });
      res.writeHead(status, { 'content-type': 'application/json' }).end(status < 300 ? '{"text":"Success","code":0}' : '{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    answer: (path, status) => answers.set(path, status),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An entry as a stream carries it (the audit export's columns with its id). */
export interface StreamedEntry {
  id: string;
  occurred_at: string;
  action: string;
  organization_id: string | null;
  organization_path: string | null;
  target_type: string;
  target_id: string | null;
  actor_email: string | null;
  actor_name: string | null;
  before: unknown;
  after: unknown;
}

/** The HEC events of the taken (2xx) requests to a path, each checked: the token, the sourcetype, the time. */
export function splunkEvents(c: Collector, path: string, token: string): StreamedEntry[] {
  return c.requests
    .filter((r) => r.path === path && r.status < 300)
    .flatMap((r) => {
      if (r.headers.authorization !== `Splunk ${token}`) throw new Error(`HEC: wrong Authorization ${r.headers.authorization}`);
      // HEC takes events one after the other in a body: JSON objects, here one a line
      return r.body.split('\n').map((line) => {
        const event = JSON.parse(line) as { time: number; sourcetype: string; event: StreamedEntry };
        if (event.sourcetype !== 'partner_portal:audit') throw new Error(`HEC: sourcetype ${event.sourcetype}`);
        if (Math.abs(event.time * 1000 - Date.parse(event.event.occurred_at)) > 1) throw new Error('HEC: time is not the entry’s');
        return event.event;
      });
    });
}

/** The Datadog logs of the taken requests to a path, each checked: the API key, ddsource, service, message. */
export function datadogLogs(c: Collector, path: string, apiKey: string): StreamedEntry[] {
  return c.requests
    .filter((r) => r.path === path && r.status < 300)
    .flatMap((r) => {
      if (r.headers['dd-api-key'] !== apiKey) throw new Error(`Datadog: wrong DD-API-KEY ${String(r.headers['dd-api-key'])}`);
      const logs = JSON.parse(r.body) as { ddsource: string; service: string; message: string; audit: StreamedEntry }[];
      if (!Array.isArray(logs)) throw new Error('Datadog: the body is no array of logs');
      return logs.map((log) => {
        if (log.ddsource !== 'partner_portal' || !log.service || !log.message) throw new Error(`Datadog: log ${JSON.stringify(log)}`);
        return log.audit;
      });
    });
}

/** The audit streams' lane of a portal (or of a second instance's services), as jobs.ts starts it. */
export function startStreamWorker(target: TestPortal | Services, options: LaneOptions = {}): Promise<AuditStreamWorker> {
  const services = 'services' in target ? target.services : target;
  return startAuditStreamWorker(
    { db: services.db, config: services.config, log: services.log, keyEncryption: services.secrets.keyEncryption },
    options,
  );
}

/** The entries' ids in the order of their first arrival (at least once: a repeat is allowed, not a change of order). */
export function firstArrivals(entries: readonly { id: string }[]): string[] {
  return [...new Set(entries.map((e) => e.id))];
}
