import { ACR_MULTI_FACTOR } from '@partner-portal/contracts';
import type { Logger } from 'pino';
import type { Database, Queryable } from '../../db/client.js';
import { AppError } from '../../http/problem.js';
import type { SessionUser } from '../../http/session.js';
import type { Oidc } from '../../oidc/runtime.js';
import { enqueueBackchannelLogouts } from '../../oidc/backchannel.js';
import * as q from './queries.js';

/**
 * Sessions: the user's own list of portal sessions (end one, or all the others), and ending the
 * access of an account, the one way every change that must end it does (removal, rights taken
 * away, a userManager's "sign out everywhere", the user's own, a password change or reset, a
 * second-factor requirement): its portal sessions end, what the OpenID provider issued to it
 * (provider sessions, grants, authorization codes, access and refresh tokens, and the remembered
 * consents that would bring a grant back) is revoked in the transaction of the change, and the
 * clients' back-channel logouts are written to the outbox in that transaction, sent by its worker
 * once it has committed (oidc/backchannel.ts). See docs/decisions/018-the-administrators-day.md.
 */

/** A back-channel logout owed to a client: written to the outbox in the transaction that revoked the access. */
export interface BackchannelNotice {
  clientId: string;
  accountId: string;
  sid: string;
}

/** What stays when an account's access ends: the browser that asked for it. */
export interface SparedBrowser {
  /** its portal session (the id hash) */
  portalSession: string;
  /**
   * its provider session (the id in the browser's provider session cookie), which stays with the
   * grants it holds and the tokens issued through it; null: the provider's access ends too
   */
  providerSession: string | null;
}

/** An account's access ended in a transaction: the back-channel logouts it wrote to the outbox. */
export interface EndedAccess {
  notices: BackchannelNotice[];
  /** how many portal sessions ended */
  portalSessions: number;
}

const toNotices = (rows: q.EndedAuthorization[]): BackchannelNotice[] =>
  rows.map((r) => ({ clientId: r.client_id, accountId: r.account_id, sid: r.sid }));

export class AccountAccess {
  constructor(private readonly deps: { log: Logger; oidc: Oidc }) {}

  /**
   * End every access of a user within the caller's transaction, except what `spared` names, and
   * write the clients' back-channel logouts to the outbox in it.
   */
  async revokeAll(tx: Queryable, userId: string, spared: SparedBrowser | null = null): Promise<EndedAccess> {
    const portalSessions = await q.deleteSessionsOf(tx, userId, spared?.portalSession ?? null);
    const ended = await q.endProviderRowsOf(tx, userId, spared?.providerSession ?? null);
    return { notices: await this.owe(tx, toNotices(ended)), portalSessions };
  }

  /**
   * End, within the caller's transaction, what the users' clients hold from sign-ins that did not
   * prove a second factor (a requirement now applies to them: factors/policy.ts): provider sessions
   * of another acr, and the grants not proven with it, with their codes and tokens (the rule:
   * sessions/queries.ts endUnprovenProviderRowsOf). Their portal sessions are the caller's.
   */
  async revokeSingleFactor(tx: Queryable, userIds: readonly string[]): Promise<BackchannelNotice[]> {
    return this.owe(tx, toNotices(await q.endUnprovenProviderRowsOf(tx, userIds, ACR_MULTI_FACTOR)));
  }

  /** Write the back-channel logouts of the ended authorizations to the outbox, in the caller's transaction. */
  private async owe(tx: Queryable, notices: BackchannelNotice[]): Promise<BackchannelNotice[]> {
    await enqueueBackchannelLogouts(
      tx,
      this.deps.oidc.provider(),
      notices.map((n) => ({ client_id: n.clientId, account_id: n.accountId, sid: n.sid })),
    );
    return notices;
  }
}

export interface SessionListItem {
  id: string;
  browser: string | null;
  user_agent: string | null;
  ip_address: string | null;
  created_at: string;
  last_seen_at: string;
  current: boolean;
}

/** A short, readable name of the browser and system of a User-Agent header ("Firefox on Windows"). */
export function describeUserAgent(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const ua = userAgent;
  const browser = /Edg(e|A|iOS)?\//.test(ua)
    ? 'Edge'
    : /OPR\/|Opera/.test(ua)
      ? 'Opera'
      : /Firefox\/|FxiOS\//.test(ua)
        ? 'Firefox'
        : /Chrome\/|CriOS\/|Chromium\//.test(ua)
          ? 'Chrome'
          : /Safari\//.test(ua) && /Version\//.test(ua)
            ? 'Safari'
            : null;
  const system = /Windows/.test(ua)
    ? 'Windows'
    : /iPhone|iPad|iPod/.test(ua)
      ? 'iOS'
      : /Mac OS X|Macintosh/.test(ua)
        ? 'macOS'
        : /Android/.test(ua)
          ? 'Android'
          : /CrOS/.test(ua)
            ? 'ChromeOS'
            : /Linux/.test(ua)
              ? 'Linux'
              : null;
  if (browser && system) return `${browser} (${system})`;
  return browser ?? system ?? ua.slice(0, 60);
}

const iso = (value: Date | string) => new Date(value).toISOString();

/** The signed-in user's own portal sessions: the list, ending one, ending all the others. */
export class SessionList {
  constructor(private readonly deps: { db: Database; access: AccountAccess }) {}

  /** The user's live sessions, the current one marked. */
  async list(user: SessionUser): Promise<{ sessions: SessionListItem[] }> {
    const { db } = this.deps;
    const rows = await q.listLiveSessions(db, user.id);
    return {
      sessions: rows.map((r) => ({
        id: r.id_hash,
        browser: describeUserAgent(r.user_agent),
        user_agent: r.user_agent,
        ip_address: r.ip_address,
        created_at: iso(r.created_at),
        last_seen_at: iso(r.last_seen_at),
        current: r.id_hash === user.sessionIdHash,
      })),
    };
  }

  /**
   * End one of the user's own sessions (another browser). The current one ends by logging out
   * (409 invalid_operation here). Ending a session that is already gone, or that is not the user's,
   * changes nothing (204 either way, so ids of other users' sessions cannot be probed).
   */
  async end(user: SessionUser, sessionId: string): Promise<void> {
    const { db } = this.deps;
    if (sessionId === user.sessionIdHash) throw new AppError('invalid_operation', { detail: 'Log out to end the current session' });
    await q.deleteSessionOf(db, user.id, sessionId);
  }

  /**
   * "Sign out everywhere": every other session of the user ends, and what the clients hold from them
   * (grants, tokens; back-channel logout through the outbox). This browser stays: its portal session and
   * its provider session (`providerSession`, the id in its cookie) with the grants obtained through
   * it. Returns how many portal sessions ended.
   */
  async endOthers(user: SessionUser, providerSession: string | null): Promise<{ ended: number }> {
    const { db, access } = this.deps;
    const ended = await db.transaction((tx) => access.revokeAll(tx, user.id, { portalSession: user.sessionIdHash, providerSession }));
    return { ended: ended.portalSessions };
  }
}
