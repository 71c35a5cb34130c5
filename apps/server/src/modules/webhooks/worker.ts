import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import { outboundPolicy } from '../../http/outbound.js';
import { startLane, type LaneOptions, type OutboxKind, type OutboxLane } from '../../outbox/worker.js';
import { unseal } from '../../sealed.js';
import * as q from './queries.js';
import { WEBHOOK_SCHEDULE } from './schedule.js';
import { DeliverySender, SECRET_PURPOSE, signerFor } from './sender.js';

/**
 * The webhooks' deliverer (docs/integrations.md, "Webhooks"). The outbox's worker
 * (outbox/worker.ts) takes the due deliveries, retries and wakes up as it does for every kind,
 * taking no delivery of a webhook that another runner of its process is sending to (a receiver
 * that is slow or does not answer, up to WEBHOOK_TIMEOUT_SECONDS, holds one runner per instance,
 * and the others go on serving the other webhooks). This signs and posts one delivery (sender.ts)
 * and writes every attempt with its status and duration.
 */

/** Unsealed signers kept per webhook; a webhook's secret never changes. */
const MAX_SIGNERS = 10_000;

type Detail = { status: number | null; durationMs: number };

/** The webhook kind of the outbox (its rows of kind 'webhook'), posted signed to the webhook's URL. */
export function webhookKind(deps: { config: Config; log: Logger; keyEncryption: string }): OutboxKind<q.DueDelivery, Detail> {
  const { config, log, keyEncryption } = deps;
  const sender = new DeliverySender({ timeoutMs: config.WEBHOOK_TIMEOUT_SECONDS * 1000, policy: outboundPolicy(config) });
  const signers = new Map<string, ReturnType<typeof signerFor>>();
  const signerOf = async (delivery: q.DueDelivery) => {
    const known = signers.get(delivery.webhook_id);
    if (known) return known;
    const signer = signerFor(await unseal(keyEncryption, SECRET_PURPOSE, delivery.secret_sealed));
    if (signers.size >= MAX_SIGNERS) signers.clear();
    signers.set(delivery.webhook_id, signer);
    return signer;
  };
  return {
    name: 'webhook',
    table: q.DELIVERY_TABLE,
    channel: q.WEBHOOK_CHANNEL,
    schedule: WEBHOOK_SCHEDULE,
    retryBaseSeconds: config.WEBHOOK_RETRY_BASE_SECONDS,
    keyOf: (delivery) => delivery.webhook_id,
    describe: (delivery) => ({ webhook_id: delivery.webhook_id, event_type: delivery.event_type }),
    record: q.recordAttempts,
    close: () => sender.close(),
    async deliver(delivery) {
      let signer;
      try {
        signer = await signerOf(delivery);
      } catch (err) {
        // the secret cannot be unsealed (KEY_ENCRYPTION_KEY changed): nothing was sent
        log.error({ err, webhook_id: delivery.webhook_id }, 'webhook: the signing secret cannot be read');
        return { result: 'failed', error: 'the signing secret cannot be read', detail: { status: null, durationMs: 0 } };
      }
      const sent = await sender.send(delivery.url, signer, { id: delivery.id, payload: delivery.payload });
      const detail = { status: sent.status, durationMs: sent.durationMs };
      return sent.ok ? { result: 'delivered', detail } : { result: 'failed', error: sent.error ?? 'failed', detail };
    },
  };
}

/** The webhooks' lane of the outbox's worker. */
export type WebhookWorker = OutboxLane<q.DueDelivery, Detail>;
export type WebhookWorkerOptions = LaneOptions;

/** Start the webhooks' sender (jobs.ts; tests start it themselves): four runners, batches of fifty. */
export function startWebhookWorker(
  deps: { db: Database; config: Config; log: Logger; keyEncryption: string },
  options: WebhookWorkerOptions = {},
): Promise<WebhookWorker> {
  return startLane(deps, webhookKind(deps), { runners: 4, batchSize: 50, ...options });
}
