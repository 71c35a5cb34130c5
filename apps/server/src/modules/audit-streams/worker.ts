import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import { outboundFetch, outboundPolicy, OutboundAddressRefused } from '../../http/outbound.js';
import { OUTBOX_CHANNEL } from '../../outbox/queries.js';
import type { RetrySchedule } from '../../outbox/schedule.js';
import { startLane, type Attempt, type LaneOptions, type OutboxKind, type OutboxLane } from '../../outbox/worker.js';
import { unseal } from '../../sealed.js';
import { listAuditEntriesByIds } from '../audit/queries.js';
import { exportedEntry, type ExportedEntry } from '../audit/read.js';
import { WEBHOOK_SCHEDULE } from '../webhooks/schedule.js';
import { DeliverySender, signerFor } from '../webhooks/sender.js';
import * as q from './queries.js';

/**
 * The audit streams' lane of the outbox's worker (outbox/worker.ts; docs/integrations.md, "Audit
 * streams"). The worker takes the head of each stream (its oldest pending row: later entries wait
 * behind a failing one) and this sends it with the rows that follow it, as the audit trail's
 * export shows the entries:
 *
 * - https: one signed request per entry, like a webhook delivery (Standard Webhooks headers,
 *   `standardwebhooks` with the stream's secret; webhook-id is the outbox row's id), body
 *   `{type: "audit.entry", timestamp, data: <entry>}`; up to HTTPS_BATCH entries one after the other,
 *   stopping at the first that is not taken (it is the next head);
 * - splunk_hec: one request of up to BATCH events, `Authorization: Splunk <token>`, each
 *   `{"time", "sourcetype": "partner_portal:audit", "event": <entry>}` (HEC takes them one after the other);
 * - datadog: one request of up to BATCH logs (a JSON array), `DD-API-KEY: <token>`, each with
 *   `ddsource: "partner_portal"`, `service`, `message` and the entry as `audit`.
 *
 * A failed head is tried again by the webhooks' schedule (the first retry after
 * WEBHOOK_RETRY_BASE_SECONDS), with its delays capped at RETRY_CAP_SECONDS, and never given up:
 * its count of attempts stays within the schedule (queries.ts, recordOutcomes). The stream is
 * `failing` with the last error until one succeeds.
 */

/** Entries in one request to Splunk HEC or Datadog (Datadog takes up to 1,000 logs and 5 MB a request). */
const BATCH = 100;
/** Entries sent one after the other in one turn to an https stream. */
const HTTPS_BATCH = 20;
/** The longest wait between two attempts of a failing stream: a receiver back after an hour gets the entries within minutes. */
const RETRY_CAP_SECONDS = 600;

export const AUDIT_STREAM_SCHEDULE: RetrySchedule = { ...WEBHOOK_SCHEDULE, capSeconds: RETRY_CAP_SECONDS };
/** The count of attempts a head keeps at most: its next retry is always the schedule's last (capped) delay. */
const ATTEMPTS_CAP = AUDIT_STREAM_SCHEDULE.multiples.length - 1;

/** The purposes its token and secret are sealed for at rest (sealed.ts). */
export const TOKEN_PURPOSE = 'audit-stream-token';
export const SECRET_PURPOSE = 'audit-stream-signing-secret';

const SOURCETYPE = 'partner_portal:audit';
const DD_SOURCE = 'partner_portal';
const SERVICE = 'partner-portal';
const USER_AGENT = 'PartnerPortal-AuditStreams/1.0';

/** A sentence of the entry for the log line's message. */
function messageOf(e: ExportedEntry): string {
  const who = e.actor_email ?? e.actor_name ?? 'the portal';
  return `${e.action} of ${e.target_type}${e.target_id ? ` ${e.target_id}` : ''} by ${who} in ${e.organization_path ?? '-'}`;
}

export function splunkBody(entries: readonly ExportedEntry[]): string {
  return entries
    .map((e) => JSON.stringify({ time: new Date(e.occurred_at).getTime() / 1000, sourcetype: SOURCETYPE, event: e }))
    .join('\n');
}

export function datadogBody(entries: readonly ExportedEntry[]): string {
  return JSON.stringify(
    entries.map((e) => ({
      ddsource: DD_SOURCE,
      service: SERVICE,
      ddtags: `action:${e.action},organization_path:${e.organization_path ?? ''}`,
      date: e.occurred_at,
      message: messageOf(e),
      audit: e,
    })),
  );
}

/** Why a call failed, short. */
function reasonOf(err: unknown): string {
  if (err instanceof OutboundAddressRefused) return err.message;
  const e = err as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError') return 'no answer in time';
  const cause = e.cause?.code ?? e.cause?.message;
  return `${e.message ?? String(err)}${cause ? ` (${cause})` : ''}`.slice(0, 300);
}

type Detail = q.HeadDetail;

/** The audit stream kind of the outbox. */
export function auditStreamKind(deps: {
  db: Database;
  config: Config;
  log: Logger;
  keyEncryption: string;
}): OutboxKind<q.StreamHead, Detail> {
  const { db, config, keyEncryption } = deps;
  const policy = outboundPolicy(config);
  const timeoutMs = config.WEBHOOK_TIMEOUT_SECONDS * 1000;
  const sender = new DeliverySender({ timeoutMs, policy });
  const guardedFetch = outboundFetch(policy);

  /** The head and the rows that follow it, with their entries as the export shows them (a row whose entry is gone is sent with nothing: skipped). */
  async function batchOf(head: q.StreamHead, max: number) {
    const rows = [{ id: head.id, entry_id: head.entry_id }, ...(await q.listFollowing(db, head, max - 1))];
    const entries = new Map(
      (
        await listAuditEntriesByIds(
          db,
          rows.map((r) => r.entry_id),
        )
      ).map((e) => [String(e.id), exportedEntry(e)]),
    );
    return rows.map((r) => ({ id: r.id, entry: entries.get(r.entry_id) ?? null }));
  }

  const delivered = (batch: { id: string; entry: ExportedEntry | null }[]): Attempt<Detail> => {
    const last = batch.findLast((b) => b.entry)?.entry ?? null;
    return { result: 'delivered', detail: { alsoDelivered: batch.slice(1).map((b) => b.id), lastEntryAt: last?.occurred_at ?? null } };
  };

  async function post(url: string, headers: Record<string, string>, body: string): Promise<string | null> {
    try {
      const res = await guardedFetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT, ...headers },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      await res.arrayBuffer().catch(() => undefined);
      return res.ok ? null : `answered ${res.status}`;
    } catch (err) {
      return reasonOf(err);
    }
  }

  return {
    name: 'audit stream',
    table: q.HEAD_TABLE,
    channel: OUTBOX_CHANNEL,
    schedule: AUDIT_STREAM_SCHEDULE,
    retryBaseSeconds: config.WEBHOOK_RETRY_BASE_SECONDS,
    keyOf: (head) => head.stream_id,
    describe: (head) => ({ audit_stream_id: head.stream_id, audit_entry_id: head.entry_id }),
    record: (tx, outcomes) => q.recordOutcomes(tx, outcomes, ATTEMPTS_CAP),
    close: () => sender.close(),
    async deliver(head) {
      let credential: string;
      try {
        const sealed = head.stream_kind === 'https' ? head.secret_sealed : head.token_sealed;
        credential = await unseal(keyEncryption, head.stream_kind === 'https' ? SECRET_PURPOSE : TOKEN_PURPOSE, sealed ?? '');
      } catch {
        // KEY_ENCRYPTION_KEY changed: nothing was sent; tried again (a stream never gives up)
        return { result: 'failed', error: 'the stream’s token or secret cannot be read' };
      }
      if (head.stream_kind === 'https') {
        const batch = await batchOf(head, HTTPS_BATCH);
        const signer = signerFor(credential);
        for (let i = 0; i < batch.length; i++) {
          const { id, entry } = batch[i]!;
          if (!entry) continue;
          const sent = await sender.send(head.url, signer, {
            id,
            payload: JSON.stringify({ type: 'audit.entry', timestamp: entry.occurred_at, data: entry }),
          });
          if (sent.ok) continue;
          if (i === 0) return { result: 'failed', error: sent.error ?? 'failed' };
          // the ones before were taken: they are delivered, this one is the next head
          return delivered(batch.slice(0, i));
        }
        return delivered(batch);
      }
      const batch = await batchOf(head, BATCH);
      const entries = batch.flatMap((b) => (b.entry ? [b.entry] : []));
      if (entries.length) {
        const error =
          head.stream_kind === 'splunk_hec'
            ? await post(head.url, { authorization: `Splunk ${credential}` }, splunkBody(entries))
            : await post(head.url, { 'dd-api-key': credential }, datadogBody(entries));
        if (error) return { result: 'failed', error };
      }
      return delivered(batch);
    },
  };
}

export type AuditStreamWorker = OutboxLane<q.StreamHead, Detail>;

/** Start the audit streams' lane (jobs.ts; tests start it themselves): two runners, ten streams a batch. */
export function startAuditStreamWorker(
  deps: { db: Database; config: Config; log: Logger; keyEncryption: string },
  options: LaneOptions = {},
): Promise<AuditStreamWorker> {
  return startLane(deps, auditStreamKind(deps), { runners: 2, batchSize: 10, ...options });
}
