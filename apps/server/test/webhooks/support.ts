import { createServer, type IncomingHttpHeaders } from 'node:http';
import { Webhook } from 'standardwebhooks';
import type { WebhookPayload } from '@partner-portal/contracts';
import { freePort, type TestPortal } from '../support/portal.js';
import { startWebhookWorker, type WebhookWorker, type WebhookWorkerOptions } from '../../src/modules/webhooks/worker.js';
import type { Services } from '../../src/services.js';
import { until } from '../support/wait.js';

/**
 * A webhook receiver on 127.0.0.1, as an application of the provider would run one: every request
 * is kept with its headers and body, and checked with the `standardwebhooks` package's
 * Webhook.verify against the secret of the path it came to (hook(path, secret)). How it answers is
 * set per path: a status, or a delay (to run into the portal's time-out), request by request.
 */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** the payload, when the signature verified; null when it did not */
  payload: WebhookPayload | null;
  /** why verification failed */
  error: string | null;
  at: number;
}

/** How the receiver answers the n-th request (from 0) to a path: a status, after a delay. */
export type Answer = (n: number) => { status?: number; delayMs?: number };

export interface Receiver {
  url: string;
  received: Received[];
  /** the requests of one path whose signature verified */
  verified(path: string): Received[];
  /** register the secret (and how to answer) of a path */
  hook(path: string, secret: string, answer?: Answer): void;
  answer(path: string, answer: Answer): void;
  /** wait until `count` verified requests came to the path (or fail after timeoutMs) */
  waitFor(path: string, count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const secrets = new Map<string, string>();
  const answers = new Map<string, Answer>();
  const counts = new Map<string, number>();
  const port = await freePort();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      const path = req.url ?? '/';
      const body = Buffer.concat(chunks).toString('utf8');
      const secret = secrets.get(path);
      let payload: WebhookPayload | null = null;
      let error: string | null = null;
      try {
        if (!secret) throw new Error(`no secret for ${path}`);
        payload = new Webhook(secret).verify(body, req.headers as Record<string, string>) as WebhookPayload;
      } catch (err) {
        error = (err as Error).message;
      }
      received.push({ path, headers: req.headers, body, payload, error, at: Date.now() });
      const n = counts.get(path) ?? 0;
      counts.set(path, n + 1);
      const { status = 200, delayMs = 0 } = answers.get(path)?.(n) ?? {};
      const send = () => {
        if (!res.destroyed) res.writeHead(status).end();
      };
      if (delayMs > 0) setTimeout(send, delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  const verified = (path: string) => received.filter((r) => r.path === path && r.payload);
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    verified,
    hook(path, secret, answer) {
      secrets.set(path, secret);
      if (answer) answers.set(path, answer);
    },
    answer(path, answer) {
      answers.set(path, answer);
    },
    async waitFor(path, count, timeoutMs = 15_000) {
      try {
        await until(path, () => verified(path).length >= count, timeoutMs, 10);
      } catch {
        const got = verified(path).map((r) => r.payload?.type);
        throw new Error(`${path}: ${got.length} of ${count} deliveries arrived in time (${got.join(', ')})`);
      }
      return verified(path);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The webhooks' sender of a portal (or of a second instance's services), as jobs.ts starts it. */
export function startWorker(target: TestPortal | Services, options: WebhookWorkerOptions = {}): Promise<WebhookWorker> {
  const services = 'services' in target ? target.services : target;
  return startWebhookWorker(
    { db: services.db, config: services.config, log: services.log, keyEncryption: services.secrets.keyEncryption },
    options,
  );
}

/**
 * Until none of the portal's webhook deliveries is pending (each succeeded or failed, its outcome
 * written): then the receiver holds every delivery made so far, and a test may see that no other
 * came, or read the deliveries' log.
 */
export async function deliveriesSettled(portal: TestPortal, timeoutMs = 15_000): Promise<void> {
  const pending = async () =>
    (await portal.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM outbox WHERE kind = 'webhook' AND state = 'pending'`))
      .rows[0]!.n;
  await until('webhook deliveries settled', async () => (await pending()) === 0, timeoutMs);
}
