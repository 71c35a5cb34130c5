import type { Queryable } from '../../db/client.js';
import { AppError } from '../../http/problem.js';
import type { SessionUser } from '../../http/session.js';
import type { Oidc } from '../../oidc/index.js';
import { backchannelLogout } from '../../oidc/logout.js';
import type { Services } from '../../services.js';
import * as q from './queries.js';

/**
 * Sessions: the user's own list of portal sessions (end one, or all the others), and ending every
 * access of an account at once (removal, rights taken away, a userManager's "sign out
 * everywhere"): its portal sessions end, everything the OpenID provider issued to it (sessions,
 * grants, access and refresh tokens) is revoked, and the clients that had a session are sent
 * back-channel logout. See docs/decisions/018-the-administrators-day.md.
 */

/** A back-channel logout still to send: after the transaction that revoked the access commits. */
export interface BackchannelNotice {
  clientId: string;
  accountId: string;
  sid: string;
}

export class AccountAccess {
  constructor(
    private readonly services: Services,
    private readonly oidc: Oidc,
  ) {}

  /**
   * End every access of a user within the caller's transaction. Returns the back-channel logouts to
   * send once it has committed (`notify`).
   */
  async revokeAll(tx: Queryable, userId: string): Promise<BackchannelNotice[]> {
    const notices: BackchannelNotice[] = [];
    for (const session of await q.providerSessionsOf(tx, userId)) {
      for (const [clientId, authorization] of Object.entries(session.authorizations ?? {})) {
        notices.push({ clientId, accountId: userId, sid: authorization.sid ?? '' });
      }
    }
    await q.deleteSessionsOf(tx, userId, null);
    await q.deleteProviderArtifactsOf(tx, userId);
    return notices;
  }

  /** Send back-channel logout to each client that registered for it; a failing client is logged, never fatal. */
  async notify(notices: BackchannelNotice[]): Promise<void> {
    const provider = this.oidc.provider();
    await Promise.all(
      notices.map(({ clientId, accountId, sid }) => backchannelLogout(provider, this.services.log, clientId, accountId, sid)),
    );
  }

  /** Revoke every access of a user in its own transaction, then notify the clients. */
  async revokeAllNow(userId: string): Promise<void> {
    const notices = await this.services.db.transaction((tx) => this.revokeAll(tx, userId));
    await this.notify(notices);
  }
}

// ---- the user's own sessions --------------------------------------------------------------------

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

export async function listSessions(services: Services, user: SessionUser): Promise<{ sessions: SessionListItem[] }> {
  const rows = await q.listLiveSessions(services.db, user.id);
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
export async function endSession(services: Services, user: SessionUser, sessionId: string): Promise<void> {
  if (sessionId === user.sessionIdHash) throw new AppError('invalid_operation', { detail: 'Log out to end the current session' });
  await q.deleteSessionOf(services.db, user.id, sessionId);
}

/** End every other session of the user; this one stays. Returns how many ended. */
export async function endOtherSessions(services: Services, user: SessionUser): Promise<{ ended: number }> {
  return { ended: await q.deleteSessionsOf(services.db, user.id, user.sessionIdHash) };
}
