import type Provider from 'oidc-provider';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Database, Queryable } from '../db/client.js';
import { OutboundAddressRefused } from '../http/outbound.js';
import { enqueue, OUTBOX_CHANNEL, recordSharedOutcomes, sharedTable, type SharedRow } from '../outbox/queries.js';
import { HTTP_RECEIVER_SCHEDULE } from '../outbox/schedule.js';
import { startLane, type OutboxKind, type OutboxLane } from '../outbox/worker.js';

/**
 * Back-channel logout through the outbox (OpenID Connect Back-Channel Logout 1.0;
 * docs/decisions/024-mail-outbox.md). When a session ends, each of its relying parties that
 * registered a backchannel_logout_uri is owed a logout token: a row of the shared outbox, written in
 * the transaction that ends the session (modules/sessions/service.ts), or on its own where
 * oidc-provider ends one (its end_session endpoint, logout.ts's endProviderSession). The outbox's
 * worker posts it after commit and tries again, with growing delays (the webhooks' schedule, from
 * WEBHOOK_RETRY_BASE_SECONDS), while the receiver is down.
 */

export const BACKCHANNEL_LOGOUT = 'backchannel_logout';

/** What a logout token is made of: whom it tells (the client), of whose session (account and sid). */
export interface BackchannelLogout {
  client_id: string;
  account_id: string;
  sid: string;
}

/** The part of a provider client that sends back-channel logout (not in oidc-provider's types). */
interface BackchannelClient {
  clientId: string;
  backchannelLogoutUri?: string;
  /** oidc-provider's method: makes the logout token and posts it (throws on an answer other than 200 or 204) */
  backchannelLogout: (this: BackchannelClient, sub: string, sid: string) => Promise<void>;
}

/** oidc-provider's own sender, kept on the clients' prototype when routeBackchannelThroughOutbox replaces it. */
const SEND = Symbol('oidc-provider backchannelLogout');
type RoutedClient = BackchannelClient & { [SEND]?: BackchannelClient['backchannelLogout'] };

/** The logouts owed to the clients that registered for back-channel logout, written to the outbox in `tx`. */
export async function enqueueBackchannelLogouts(tx: Queryable, provider: Provider, logouts: readonly BackchannelLogout[]): Promise<void> {
  const owed: BackchannelLogout[] = [];
  for (const logout of logouts) {
    const client = (await provider.Client.find(logout.client_id).catch(() => undefined)) as unknown as BackchannelClient | undefined;
    if (client?.backchannelLogoutUri) owed.push(logout);
  }
  await enqueue(tx, BACKCHANNEL_LOGOUT, owed);
}

/**
 * Make every back-channel logout oidc-provider sends itself (its end_session endpoint) a row of the
 * outbox instead, written on its own: the call returns once the row is written; the worker sends
 * it with the provider's own sender (backchannelLogoutKind).
 */
export function routeBackchannelThroughOutbox(provider: Provider, db: Database): void {
  const prototype = provider.Client.prototype as unknown as RoutedClient;
  if (prototype[SEND]) return;
  prototype[SEND] = prototype.backchannelLogout;
  prototype.backchannelLogout = async function (this: BackchannelClient, sub: string, sid: string) {
    await enqueue(db, BACKCHANNEL_LOGOUT, [{ client_id: this.clientId, account_id: sub, sid }]);
  };
}

/**
 * The back-channel logout kind of the outbox: the logout token, made and posted by oidc-provider
 * (signed with the provider's current keys) to the client's backchannel_logout_uri. An answer
 * other than 200 or 204, or none, is tried again; a client gone or no longer registered for it has
 * nothing to be told; an address the outbound policy refuses is refused for good.
 */
export function backchannelLogoutKind(deps: {
  provider: () => Provider;
  retryBaseSeconds: number;
}): OutboxKind<SharedRow<BackchannelLogout>> {
  return {
    name: 'back-channel logout',
    table: sharedTable(BACKCHANNEL_LOGOUT, 'client_id'),
    channel: OUTBOX_CHANNEL,
    schedule: HTTP_RECEIVER_SCHEDULE,
    retryBaseSeconds: deps.retryBaseSeconds,
    keyOf: (row) => row.payload.client_id,
    describe: (row) => ({ client_id: row.payload.client_id }),
    record: recordSharedOutcomes,
    async deliver({ payload }) {
      const client = (await deps.provider().Client.find(payload.client_id)) as unknown as RoutedClient | undefined;
      if (!client?.backchannelLogoutUri) return { result: 'delivered' };
      const send = client[SEND] ?? client.backchannelLogout;
      try {
        await send.call(client, payload.account_id, payload.sid);
        return { result: 'delivered' };
      } catch (err) {
        const cause = (err as { cause?: unknown }).cause;
        const refused = err instanceof OutboundAddressRefused || cause instanceof OutboundAddressRefused;
        return { result: refused ? 'refused' : 'failed', error: (err as Error).message.slice(0, 300) };
      }
    },
  };
}

/** Start the back-channel logouts' sender (jobs.ts; the test kit's portal): two runners, one client each at a time. */
export function startBackchannelLogoutWorker(deps: {
  db: Database;
  log: Logger;
  config: Pick<Config, 'WEBHOOK_RETRY_BASE_SECONDS'>;
  provider: () => Provider;
}): Promise<OutboxLane<SharedRow<BackchannelLogout>>> {
  const kind = backchannelLogoutKind({ provider: deps.provider, retryBaseSeconds: deps.config.WEBHOOK_RETRY_BASE_SECONDS });
  return startLane(deps, kind, { runners: 2, batchSize: 20 });
}
