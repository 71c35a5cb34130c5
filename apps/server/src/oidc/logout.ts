import type { FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { Session } from 'oidc-provider';
import type { Logger } from 'pino';

/**
 * Ending provider sessions, the provider's way: its cookie names, Session.find, the grants'
 * tokens revoked by grant id, and back-channel logout of the clients. Everything here knows
 * oidc-provider's internals so that no module has to (docs/decisions/004-login-and-logout.md).
 */

/** oidc-provider's session cookie (and its signature and legacy variants). */
export const PROVIDER_SESSION_COOKIE = '_session';
const PROVIDER_SESSION_COOKIES = [PROVIDER_SESSION_COOKIE, '_session.sig', '_session.legacy', '_session.legacy.sig'];

/** Remove the provider's session cookies this browser sent. */
export function clearProviderSessionCookies(request: FastifyRequest, reply: FastifyReply): void {
  for (const name of PROVIDER_SESSION_COOKIES) {
    if (request.cookies[name] !== undefined) void reply.clearCookie(name, { path: '/' });
  }
}

/** The front-channel logout URLs (with iss and sid) of the clients of a provider session. */
export async function frontchannelLogoutUris(provider: Provider, session: Session, issuer: string): Promise<string[]> {
  const uris: string[] = [];
  for (const clientId of Object.keys(session.authorizations ?? {})) {
    const client = await provider.Client.find(clientId).catch(() => undefined);
    const uri = client?.metadata().frontchannel_logout_uri;
    if (typeof uri !== 'string') continue;
    const u = new URL(uri);
    u.searchParams.set('iss', issuer);
    const sid = session.sidFor(clientId);
    if (sid) u.searchParams.set('sid', sid);
    uris.push(u.toString());
  }
  return uris;
}

/** The part of a provider client that sends back-channel logout (not in oidc-provider's types). */
interface BackchannelClient {
  backchannelLogoutUri?: string;
  backchannelLogout(sub: string, sid: string): Promise<void>;
}

/**
 * Back-channel logout to a client, if it registered for it: written to the outbox on its own
 * (backchannel.ts routes the provider's sender there), sent by the outbox's worker. A failure to
 * write it is logged, never fatal.
 */
export async function backchannelLogout(provider: Provider, log: Logger, clientId: string, accountId: string, sid: string): Promise<void> {
  const client = (await provider.Client.find(clientId).catch(() => undefined)) as unknown as BackchannelClient | undefined;
  if (!client?.backchannelLogoutUri) return;
  await client.backchannelLogout(accountId, sid).catch((err: unknown) => {
    log.warn({ err, clientId }, 'back-channel logout failed');
  });
}

/**
 * End the provider session of a session cookie: back-channel logout of its clients, grants
 * revoked (unless they persist logout), the session destroyed. Returns the front-channel logout
 * URLs of its clients (for the logout's iframe_url).
 */
export async function endProviderSession(
  provider: Provider,
  log: Logger,
  issuer: string,
  sessionCookie: string | undefined,
): Promise<string[]> {
  if (!sessionCookie || sessionCookie.length > 200) return [];
  const session = await provider.Session.find(sessionCookie);
  if (!session) return [];
  const accountId = session.accountId;
  const frontchannel = await frontchannelLogoutUris(provider, session, issuer);
  for (const [clientId, authorization] of Object.entries(session.authorizations ?? {})) {
    if (accountId) await backchannelLogout(provider, log, clientId, accountId, session.sidFor(clientId) ?? '');
    const grantId = authorization.grantId;
    if (grantId && !authorization.persistsLogout) {
      await Promise.all([
        provider.AccessToken.revokeByGrantId(grantId),
        provider.RefreshToken.revokeByGrantId(grantId),
        provider.AuthorizationCode.revokeByGrantId(grantId),
        provider.Grant.adapter.destroy(grantId),
      ]);
    }
  }
  await session.destroy();
  return frontchannel;
}
