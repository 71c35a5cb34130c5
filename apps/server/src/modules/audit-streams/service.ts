import {
  AUDIT_STREAM_TOKEN_KINDS,
  type AuditStream,
  type AuditStreamCreated,
  type AuditStreamKind,
  type AuditStreamReplayed,
} from '@partner-portal/contracts';
import type { Config } from '../../config.js';
import type { Database, Queryable } from '../../db/client.js';
import { checkOutboundUrl, OutboundAddressRefused, outboundPolicy } from '../../http/outbound.js';
import { AppError } from '../../http/problem.js';
import { personOf, type Actor } from '../../http/session.js';
import { seal } from '../../sealed.js';
import type { AuditChange } from '../audit/service.js';
import { recordChange } from '../webhooks/changes.js';
import type { OrganizationRow } from '../scope/queries.js';
import { organizationForActor } from '../scope/service.js';
import { newSigningSecret } from '../webhooks/sender.js';
import * as q from './queries.js';
import { SECRET_PURPOSE, TOKEN_PURPOSE } from './worker.js';

/**
 * Audit streams (docs/integrations.md, "Audit streams"): the managers of an organization (its
 * organizationManagers, or an ancestor's) send the audit trail of its subtree to their own log
 * system. People only: a stream is a credential that would outlive a service account (403
 * service_account_not_allowed). Tokens and the https secret are sealed (sealed.ts) and never
 * answered; the secret is shown once, when the stream is made. Every change is audited. What is
 * sent, and when, is the outbox's (worker.ts).
 */

const iso = (value: Date | string) => new Date(value).toISOString();

function toStream(row: q.AuditStreamRow): AuditStream {
  return {
    id: row.id,
    organization_id: row.organization_id,
    kind: row.kind,
    url: row.url,
    description: row.description,
    state: row.paused ? 'paused' : row.failing ? 'failing' : 'active',
    last_delivered_at: row.last_delivered_at ? iso(row.last_delivered_at) : null,
    last_error: row.last_error,
    created_at: iso(row.created_at),
  };
}

/** What the audit log keeps of a stream (never its token or secret). */
const described = (s: { kind: string; url: string; description: string | null; paused: boolean }) => ({
  kind: s.kind,
  url: s.url,
  description: s.description,
  paused: s.paused,
});

function streamChange(org: OrganizationRow, action: string, streamId: string, before?: unknown, after?: unknown): AuditChange {
  return { organizationId: org.id, organizationPath: org.path, action, targetType: 'audit_stream', targetId: streamId, before, after };
}

export class AuditStreams {
  constructor(private readonly deps: { db: Database; config: Config; keyEncryption: string }) {}

  async list(actor: Actor, organizationId: string): Promise<AuditStream[]> {
    const { db } = this.deps;
    personOf(actor);
    const { org } = await organizationForActor(db, actor, organizationId, { role: 'organization' });
    return (await q.listStreams(db, org.id)).map(toStream);
  }

  /** Make a stream; an https stream's answer carries its signing secret, the only time it is shown. */
  async create(
    actor: Actor,
    organizationId: string,
    input: { kind: AuditStreamKind; url: string; token?: string | null | undefined; description?: string | null | undefined },
  ): Promise<AuditStreamCreated> {
    const { db, keyEncryption } = this.deps;
    const user = personOf(actor);
    await organizationForActor(db, actor, organizationId, { role: 'organization' });
    await this.assertReachable(input.url);
    const secret = input.kind === 'https' ? newSigningSecret() : null;
    const secretSealed = secret ? await seal(keyEncryption, SECRET_PURPOSE, secret) : null;
    const tokenSealed =
      AUDIT_STREAM_TOKEN_KINDS.includes(input.kind) && input.token ? await seal(keyEncryption, TOKEN_PURPOSE, input.token) : null;
    const description = input.description?.trim() || null;
    return db.transaction(async (tx) => {
      const { org } = await organizationForActor(tx, actor, organizationId, { role: 'organization' });
      const row = await q.insertStream(tx, {
        organizationId: org.id,
        kind: input.kind,
        url: input.url,
        description,
        tokenSealed,
        secretSealed,
        createdBy: user.id,
      });
      await recordChange(tx, actor, streamChange(org, 'audit_stream.create', row.id, undefined, described(row)));
      return secret ? { id: row.id, secret } : { id: row.id };
    });
  }

  /** Pause or resume (what waited is sent), change the URL, the token or the description. */
  async update(
    actor: Actor,
    organizationId: string,
    streamId: string,
    input: { paused?: boolean | undefined; url?: string | undefined; token?: string | undefined; description?: string | null | undefined },
  ): Promise<void> {
    const { db, keyEncryption } = this.deps;
    personOf(actor);
    await organizationForActor(db, actor, organizationId, { role: 'organization' });
    if (input.url !== undefined) await this.assertReachable(input.url);
    const tokenSealed = input.token ? await seal(keyEncryption, TOKEN_PURPOSE, input.token) : null;
    await db.transaction(async (tx) => {
      const { org, row } = await this.ownStream(tx, actor, organizationId, streamId);
      // a token is what Splunk HEC and Datadog take; an https stream signs with its secret
      if (tokenSealed && !AUDIT_STREAM_TOKEN_KINDS.includes(row.kind)) throw AppError.validation({ token: 'validation_failed' });
      const updated = await q.updateStream(tx, row.id, {
        url: input.url ?? row.url,
        description: input.description === undefined ? row.description : input.description?.trim() || null,
        paused: input.paused ?? row.paused,
        tokenSealed,
      });
      const after = { ...described(updated), ...(tokenSealed ? { token: 'changed' } : {}) };
      await recordChange(tx, actor, streamChange(org, 'audit_stream.update', row.id, described(row), after));
    });
  }

  /** Delete a stream with what it had not sent yet. */
  async delete(actor: Actor, organizationId: string, streamId: string): Promise<void> {
    const { db } = this.deps;
    personOf(actor);
    await db.transaction(async (tx) => {
      const { org, row } = await this.ownStream(tx, actor, organizationId, streamId);
      await q.deleteStream(tx, row.id);
      await recordChange(tx, actor, streamChange(org, 'audit_stream.delete', row.id, described(row)));
    });
  }

  /** Send again every entry of the subtree from a time, in order, after what is pending. */
  async replay(actor: Actor, organizationId: string, streamId: string, input: { from: string }): Promise<AuditStreamReplayed> {
    const { db } = this.deps;
    personOf(actor);
    return db.transaction(async (tx) => {
      const { org, row } = await this.ownStream(tx, actor, organizationId, streamId);
      const queued = await q.queueReplay(tx, row.id, org.path, input.from);
      await recordChange(tx, actor, streamChange(org, 'audit_stream.replay', row.id, undefined, { from: input.from, queued }));
      return { queued };
    });
  }

  /** The organization (checked for the actor) and its stream, locked; 404 unknown_audit_stream for another organization's. */
  private async ownStream(db: Queryable, actor: Actor, organizationId: string, streamId: string) {
    const { org } = await organizationForActor(db, actor, organizationId, { role: 'organization' });
    const row = await q.findStreamForUpdate(db, org.id, streamId);
    if (!row) throw new AppError('unknown_audit_stream');
    return { org, row };
  }

  /** The outbound guard of webhooks (http/outbound.ts): in production a private address is refused unless OUTBOUND_ALLOW_PRIVATE_NETWORKS=true. */
  private async assertReachable(url: string): Promise<void> {
    try {
      await checkOutboundUrl(new URL(url), outboundPolicy(this.deps.config));
    } catch (err) {
      if (err instanceof OutboundAddressRefused) throw AppError.validation({ url: 'audit_stream_url_not_allowed' });
      throw err;
    }
  }
}
