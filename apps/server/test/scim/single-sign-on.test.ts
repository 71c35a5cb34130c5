import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient, type HttpResponse } from '../support/http.js';
import { freePort, startPortal, type TestPortal } from '../support/portal.js';
import { buildFixture, type Fixture } from '../organizations/fixtures.js';
import { Directory, entraUser, makeToken, patchOp } from './support.js';

/**
 * A provisioned member of a domain that signs in at an identity provider (here the EXTERNAL_IDP_*
 * one, the provider root's connection; a second oidc-provider started here): they get no
 * invitation, sign in there at once, and a deactivation refuses that sign-in until reactivation.
 */
let portal: TestPortal;
let f: Fixture;
let upstream: Provider;
let upstreamServer: Server;
let upstreamUrl: string;
const EMAIL = 'ada.lovelace@corp-idp.example';

async function upstreamInteraction(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const details = await upstream.interactionDetails(req, res);
  if (req.method === 'POST') {
    await upstream.interactionFinished(req, res, { login: { accountId: 'ada' } }, { mergeWithLastSubmission: false });
    return;
  }
  if (details.prompt.name === 'consent') {
    const grant = new upstream.Grant({ accountId: details.session!.accountId, clientId: String(details.params.client_id) });
    grant.addOIDCScope('openid email profile');
    await upstream.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
    return;
  }
  res.writeHead(200, { 'content-type': 'text/html' }).end('<form method="post"></form>');
}

beforeAll(async () => {
  const upstreamPort = await freePort();
  upstreamUrl = `http://localhost:${upstreamPort}`;
  portal = await startPortal({
    EXTERNAL_IDP_ISSUER: upstreamUrl,
    EXTERNAL_IDP_CLIENT_ID: 'partner-portal',
    EXTERNAL_IDP_CLIENT_SECRET: 'upstream-client-secret-0123456789',
    EXTERNAL_IDP_EMAIL_DOMAINS: 'corp-idp.example',
  });
  f = await buildFixture(portal);
  upstream = new Provider(upstreamUrl, {
    clients: [
      {
        client_id: 'partner-portal',
        client_secret: 'upstream-client-secret-0123456789',
        redirect_uris: [`${portal.url}/api/identity/login-external-callback`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['upstream-cookie-key-for-scim-tests'] },
    findAccount: (_ctx, id) =>
      id === 'ada' ? { accountId: id, claims: () => ({ sub: id, email: EMAIL, email_verified: true, given_name: 'Ada' }) } : undefined,
  });
  const callback = upstream.callback();
  upstreamServer = createServer((req, res) => {
    if (req.url?.startsWith('/interaction/')) upstreamInteraction(req, res).catch((err: Error) => res.writeHead(500).end(err.message));
    else void callback(req, res);
  });
  await new Promise<void>((resolve) => upstreamServer.listen(upstreamPort, '127.0.0.1', () => resolve()));
});
afterAll(async () => {
  await new Promise((resolve) => upstreamServer?.close(resolve));
  await portal?.close();
});

/** A browser's sign-in through the upstream provider: where it lands at the portal, and the portal's cookie jar. */
async function upstreamSignIn(): Promise<{ landing: string; browser: HttpClient }> {
  const browser = portal.client();
  const upstreamJar = new HttpClient(upstreamUrl);
  const jar = (url: string) => (url.startsWith(upstreamUrl) ? upstreamJar : browser);
  let next = `${portal.url}/api/identity/challenge-external-login`;
  for (let i = 0; i < 20; i++) {
    let res: HttpResponse = await jar(next).get(next);
    if (next.startsWith(`${upstreamUrl}/interaction/`) && res.status === 200)
      res = await upstreamJar.request('POST', next, { raw: '', contentType: 'application/x-www-form-urlencoded' });
    const location = res.headers.get('location');
    if (!location || res.status < 300 || res.status >= 400) break;
    next = new URL(location, next).toString();
    if (next.startsWith(portal.url) && !next.startsWith(`${portal.url}/api/`)) return { landing: next, browser };
  }
  throw new Error(`the sign-in did not come back to the portal (${next})`);
}

describe('a provisioned member of an identity provider’s domain', () => {
  it('gets no invitation, signs in there, and cannot while deactivated', async () => {
    const scim = new Directory(portal, (await makeToken(f.userMgrA.client, f.tree.a.id, 'Corp')).token);
    const created = await scim.post('/Users', entraUser(EMAIL));
    expect(created.status, created.text).toBe(201);
    const stored = await portal.services.db.query<{ external_idp: string }>(
      'SELECT u.external_idp FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.id = $1',
      [created.body.id],
    );
    expect(stored.rows[0]!.external_idp).toBe('external');
    expect((await portal.services.db.query('SELECT 1 FROM invitations WHERE lower(email) = $1', [EMAIL])).rowCount).toBe(0);

    const first = await upstreamSignIn();
    expect(first.landing).not.toContain('loginError');
    expect((await first.browser.get('/api/identity/user-info')).body).toMatchObject({ email: EMAIL, organizationId: f.tree.a.id });

    await scim.patch(`/Users/${created.body.id}`, patchOp({ op: 'Replace', path: 'active', value: 'False' }));
    expect((await first.browser.get('/api/identity/user-info')).status).toBe(401);
    const refused = await upstreamSignIn();
    expect(refused.landing).toContain('loginError');
    const errorId = new URL(refused.landing).searchParams.get('loginError');
    const record = await portal.client().get(`/api/identity/login-error?errorId=${encodeURIComponent(errorId ?? '')}`);
    expect(record.body.error).toBe('account_deactivated');
    expect((await refused.browser.get('/api/identity/user-info')).status).toBe(401);

    await scim.patch(`/Users/${created.body.id}`, patchOp({ op: 'Replace', path: 'active', value: 'True' }));
    const again = await upstreamSignIn();
    expect(again.landing).not.toContain('loginError');
    expect((await again.browser.get('/api/identity/user-info')).status).toBe(200);
  });
});
