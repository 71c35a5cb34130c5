import type { Webhook, WebhookCreated, WebhookDeliveries, WebhookDeliveryState } from '@partner-portal/contracts';
import type { Config } from '../../config.js';
import type { Database, Queryable } from '../../db/client.js';
import { invalidBearerToken } from '../../http/bearer.js';
import { checkOutboundUrl, OutboundAddressRefused, outboundPolicy } from '../../http/outbound.js';
import { AppError } from '../../http/problem.js';
import type { Actor } from '../../http/session.js';
import { seal } from '../../sealed.js';
import type { AuditChange } from '../audit/service.js';
import { recordChange } from './changes.js';
import type { OrganizationRow } from '../scope/queries.js';
import { organizationForActor } from '../scope/service.js';
import * as q from './queries.js';
import { newSigningSecret, SECRET_PURPOSE } from './sender.js';

/**
 * Webhooks (docs/integrations.md, "Webhooks"): organizationManagers of an organization (its own or
 * an ancestor's) subscribe URLs to the events of its subtree, read the deliveries and their
 * attempts, and ask for a delivery again. The signing secret is shown once, when the webhook is
 * made, and kept sealed (sealed.ts). Every change is audited. A webhook made by a service account
 * belongs to it and ends with it (migration 0073): the account's deletion takes it along
 * (service-accounts/service.ts).
 */

const DELIVERIES_PAGE_SIZE = 50;

const iso = (value: Date | string) => new Date(value).toISOString();

function toWebhook(row: q.WebhookRow): Webhook {
  return {
    id: row.id,
    organization_id: row.organization_id,
    url: row.url,
    events: row.events,
    description: row.description,
    service_account_id: row.service_account_id,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** What the audit log keeps of a webhook (never its secret). */
const described = (w: { url: string; events: string[]; description: string | null }) => ({
  url: w.url,
  events: w.events,
  description: w.description,
});

function webhookChange(org: OrganizationRow, action: string, webhookId: string, before?: unknown, after?: unknown): AuditChange {
  return { organizationId: org.id, organizationPath: org.path, action, targetType: 'webhook', targetId: webhookId, before, after };
}

export class Webhooks {
  constructor(private readonly deps: { db: Database; config: Config; keyEncryption: string }) {}

  /** The organization's own webhooks (an ancestor's are its managers' business). */
  async list(actor: Actor, organizationId: string): Promise<Webhook[]> {
    const { db } = this.deps;
    const { org } = await organizationForActor(db, actor, organizationId, { role: 'organization' });
    return (await q.listWebhooks(db, org.id)).map(toWebhook);
  }

  /** Subscribe a URL; the answer carries the signing secret, the only time it is shown. */
  async create(
    actor: Actor,
    organizationId: string,
    input: { url: string; events: string[]; description?: string | null | undefined },
  ): Promise<WebhookCreated> {
    const { db, keyEncryption } = this.deps;
    await organizationForActor(db, actor, organizationId, { role: 'organization' });
    await this.assertReachable(input.url);
    const secret = newSigningSecret();
    const secretSealed = await seal(keyEncryption, SECRET_PURPOSE, secret);
    const description = input.description?.trim() || null;
    const serviceAccountId = actor.user === null ? actor.serviceAccount.id : null;
    return db.transaction(async (tx) => {
      // deleted meanwhile: its tokens stopped working (http/bearer.ts), and so does this request
      if (serviceAccountId && !(await q.holdServiceAccount(tx, serviceAccountId))) throw invalidBearerToken();
      const { org } = await organizationForActor(tx, actor, organizationId, { role: 'organization' });
      const row = await q.insertWebhook(tx, {
        organizationId: org.id,
        url: input.url,
        events: input.events,
        description,
        secretSealed,
        createdBy: actor.user?.id ?? null,
        serviceAccountId,
      });
      await recordChange(tx, actor, webhookChange(org, 'webhook.create', row.id, undefined, described(row)));
      return { id: row.id, secret };
    });
  }

  /** Change the URL, the events or the description; the secret stays. */
  async update(
    actor: Actor,
    organizationId: string,
    webhookId: string,
    input: { url?: string | undefined; events?: string[] | undefined; description?: string | null | undefined },
  ): Promise<Webhook> {
    const { db } = this.deps;
    await organizationForActor(db, actor, organizationId, { role: 'organization' });
    if (input.url !== undefined) await this.assertReachable(input.url);
    return db.transaction(async (tx) => {
      const { org, row } = await this.ownWebhook(tx, actor, organizationId, webhookId, 'change');
      const after = {
        url: input.url ?? row.url,
        events: input.events ?? row.events,
        description: input.description === undefined ? row.description : input.description?.trim() || null,
      };
      const updated = await q.updateWebhook(tx, row.id, after);
      await recordChange(tx, actor, webhookChange(org, 'webhook.update', row.id, described(row), described(updated)));
      return toWebhook(updated);
    });
  }

  /** Delete a webhook with its deliveries; nothing more is sent to it. */
  async delete(actor: Actor, organizationId: string, webhookId: string): Promise<void> {
    const { db } = this.deps;
    await db.transaction(async (tx) => {
      const { org, row } = await this.ownWebhook(tx, actor, organizationId, webhookId, 'update');
      await q.deleteWebhook(tx, row.id);
      await recordChange(tx, actor, webhookChange(org, 'webhook.delete', row.id, described(row)));
    });
  }

  /** A page of the webhook's deliveries, newest first, each with its attempts. */
  async deliveries(
    actor: Actor,
    organizationId: string,
    webhookId: string,
    query: { page: number; state?: WebhookDeliveryState | undefined },
  ): Promise<WebhookDeliveries> {
    const { db } = this.deps;
    const { row } = await this.ownWebhook(db, actor, organizationId, webhookId);
    const page = await q.listDeliveries(db, row.id, {
      state: query.state,
      limit: DELIVERIES_PAGE_SIZE,
      offset: (query.page - 1) * DELIVERIES_PAGE_SIZE,
    });
    const attempts = await q.listAttempts(
      db,
      page.map((d) => d.id),
    );
    return {
      total: page[0]?.total ?? 0,
      page: query.page,
      page_size: DELIVERIES_PAGE_SIZE,
      deliveries: page.map((d) => ({
        id: d.id,
        event_type: d.event_type,
        organization_id: d.organization_id,
        state: d.state,
        created_at: iso(d.created_at),
        next_attempt_at: d.state === 'pending' ? iso(d.next_attempt_at) : null,
        completed_at: d.completed_at ? iso(d.completed_at) : null,
        attempt_count: d.attempts,
        payload: JSON.parse(d.payload) as unknown,
        attempts: attempts
          .filter((a) => a.delivery_id === d.id)
          .map((a) => ({ attempted_at: iso(a.attempted_at), status: a.status, duration_ms: a.duration_ms, error: a.error })),
      })),
    };
  }

  /**
   * Send a delivery again (whatever its state): it is due at once, with the same webhook-id, and
   * sent by the worker. One that fails again goes on with the retries it has left (none after the
   * last: it has failed again).
   */
  async retry(actor: Actor, organizationId: string, webhookId: string, deliveryId: string): Promise<{ id: string; state: 'pending' }> {
    const { db } = this.deps;
    return db.transaction(async (tx) => {
      const { org, row } = await this.ownWebhook(tx, actor, organizationId, webhookId, 'change');
      const delivery = await q.findDeliveryForUpdate(tx, row.id, deliveryId);
      if (!delivery) throw new AppError('unknown_webhook');
      await q.makeDue(tx, delivery.id);
      await q.notifySenders(tx);
      await recordChange(
        tx,
        actor,
        webhookChange(
          org,
          'webhook.delivery.retry',
          row.id,
          { delivery_id: delivery.id, event_type: delivery.event_type, state: delivery.state, attempts: delivery.attempts },
          { delivery_id: delivery.id, state: 'pending' },
        ),
      );
      return { id: delivery.id, state: 'pending' as const };
    });
  }

  /** The organization (checked for the actor) and its webhook; 404 unknown_webhook for another organization's. */
  private async ownWebhook(
    db: Queryable,
    actor: Actor,
    organizationId: string,
    webhookId: string,
    lock: 'update' | 'change' | null = null,
  ) {
    const { org } = await organizationForActor(db, actor, organizationId, { role: 'organization' });
    const row = await q.findWebhook(db, org.id, webhookId, lock);
    if (!row) throw new AppError('unknown_webhook');
    return { org, row };
  }

  /** In production, a URL whose host is (or resolves to) a private address is refused, unless OUTBOUND_ALLOW_PRIVATE_NETWORKS=true. */
  private async assertReachable(url: string): Promise<void> {
    try {
      await checkOutboundUrl(new URL(url), outboundPolicy(this.deps.config));
    } catch (err) {
      if (err instanceof OutboundAddressRefused) throw AppError.validation({ url: 'webhook_url_not_allowed' });
      throw err;
    }
  }
}
