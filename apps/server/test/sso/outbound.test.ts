import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDealerIdp, type DealerIdp } from '../support/dealer-idp.js';
import { NO_LOGIN_LIMITS, startPortal, type TestPortal } from '../support/portal.js';
import { buildDealerTree, createConnection, createPerson, verifyDomain, type Person } from './support.js';

/**
 * The outbound guard in production (http/outbound.ts; the operating contract: outgoing calls to
 * loopback and private addresses are refused when NODE_ENV=production, unless
 * OUTBOUND_ALLOW_PRIVATE_NETWORKS=true): a connection's discovery at 127.0.0.1 is refused, and
 * allowed when the operator says so.
 */
let idp: DealerIdp;

beforeAll(async () => {
  idp = await startDealerIdp();
});
afterAll(() => idp?.close());

async function portalWithManager(env: Record<string, string>): Promise<{ portal: TestPortal; manager: Person; organizationId: string }> {
  // the same upstream provider, at 127.0.0.1, for both portals: only the guard's setting differs
  const portal = await startPortal({
    ...NO_LOGIN_LIMITS,
    NODE_ENV: 'production',
    EXTERNAL_IDP_ISSUER: idp.issuer,
    EXTERNAL_IDP_CLIENT_ID: 'portal-external',
    ...env,
  });
  const tree = await buildDealerTree(portal);
  await verifyDomain(portal, tree.dealer.id, 'guarded.example');
  const manager = await createPerson(portal, tree.dealer, 'chief@guarded.example', { manager: 'organization' });
  return { portal, manager, organizationId: tree.dealer.id };
}

const body = (issuer: string) => ({ name: 'Guarded', issuer, client_id: 'portal', domains: ['guarded.example'] });

describe('outgoing calls in production', () => {
  let guarded: Awaited<ReturnType<typeof portalWithManager>>;
  let allowed: Awaited<ReturnType<typeof portalWithManager>>;
  beforeAll(async () => {
    guarded = await portalWithManager({});
    allowed = await portalWithManager({ OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' });
  });
  afterAll(async () => {
    await guarded?.portal.close();
    await allowed?.portal.close();
  });

  const challenge = (portal: TestPortal) => portal.client().get('/api/identity/challenge-external-login');

  it('refuses to reach a provider on a loopback address', async () => {
    // the EXTERNAL_IDP_* provider at 127.0.0.1: its discovery is refused, the login page says so
    const refused = await challenge(guarded.portal);
    expect(refused.status).toBe(303);
    expect(refused.headers.get('location')).toMatch(/^\/login\?loginError=/);
    // a connection: an issuer on a loopback or link-local address is not discovered
    for (const issuer of ['https://127.0.0.1:1', 'https://localhost:1', 'https://169.254.169.254']) {
      const res = await createConnection(guarded.manager.client, guarded.organizationId, body(issuer), 409);
      expect(res.body.i18NTranslationKey, issuer).toBe('sso_discovery_failed');
    }
    // and a connection's issuer is https in production
    const http = await createConnection(guarded.manager.client, guarded.organizationId, body(idp.issuer), 400);
    expect(http.body.errors.issuer[0].translation_key).toBe('invalid_issuer');
  });

  it('reaches it with OUTBOUND_ALLOW_PRIVATE_NETWORKS=true', async () => {
    const reached = await challenge(allowed.portal);
    expect(reached.status).toBe(303);
    expect(reached.headers.get('location')!.startsWith(`${idp.issuer}/`)).toBe(true);
    const res = await createConnection(allowed.manager.client, allowed.organizationId, body(idp.issuer));
    expect(res.body.id).toBeTruthy();
  });
});
