import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findVerifiedDomain } from '../../src/modules/domains/queries.js';
import {
  auditOf,
  claim,
  claimAndVerify,
  domainPath,
  domainsPath,
  keyOf,
  startDomainWorld,
  storedClaim,
  verify,
  type DomainWorld,
} from './support.js';

/**
 * Verified domains (docs/dealer-identity.md, "Verified domains"): a dealer claims a domain, publishes
 * the TXT record on a real DNS server (support/dns-server.ts) and verifies it; the domain then
 * serves its subtree. Fixture: root → dealer-a → north → farm-1, dealer-a → south, root → dealer-b.
 */
let world: DomainWorld;

beforeAll(async () => {
  world = await startDomainWorld();
});
afterAll(() => world?.close());

describe('claiming and verifying a domain', () => {
  it('claims, verifies through DNS, lists it verified for the organization and inherited below', async () => {
    const { f, dns, portal } = world;
    const claimed = await claim(f.orgMgrA.client, f.tree.a.id, 'dealer-a.example');
    expect(claimed.status, claimed.text).toBe(201);
    expect(claimed.body).toEqual({
      domain: 'dealer-a.example',
      verified: false,
      verification: {
        type: 'TXT',
        name: '_partner-portal.dealer-a.example',
        value: expect.stringMatching(/^partner-portal-verification=[\w-]{43}$/),
      },
    });
    const { value } = claimed.body.verification;

    // claimed again (by another manager of the organization): the same record
    const again = await claim(f.admin.client, f.tree.a.id, 'Dealer-A.example');
    expect(again.status).toBe(201);
    expect(again.body).toEqual(claimed.body);

    // not published yet
    const early = await verify(f.orgMgrA.client, f.tree.a.id, 'dealer-a.example');
    expect(early.status).toBe(409);
    expect(keyOf(early)).toBe('domain_verification_failed');
    expect((await storedClaim(portal, f.tree.a.id, 'dealer-a.example'))?.verified_at).toBeNull();

    // published beside another record of the name, in two character-strings
    dns.set('_partner-portal.dealer-a.example', 'v=something-else', [value.slice(0, 20), value.slice(20)]);
    const verified = await verify(f.orgMgrA.client, f.tree.a.id, 'dealer-a.example');
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body).toEqual({ domain: 'dealer-a.example', verified: true });
    expect(dns.questions).toContain('_partner-portal.dealer-a.example TXT');

    const own = await f.orgMgrA.client.get(domainsPath(f.tree.a.id));
    expect(own.status).toBe(200);
    expect(own.body).toEqual([
      {
        domain: 'dealer-a.example',
        verified: true,
        organization_id: f.tree.a.id,
        verification: { type: 'TXT', name: '_partner-portal.dealer-a.example', value },
        verified_at: expect.any(String),
      },
    ]);
    // any manager of the organization reads them
    expect((await f.userMgrA.client.get(domainsPath(f.tree.a.id))).body).toEqual(own.body);

    // inherited two levels down, without the record
    const inherited = await f.mgrNorth.client.get(domainsPath(f.tree.farm.id));
    expect(inherited.status).toBe(200);
    expect(inherited.body).toEqual([
      { domain: 'dealer-a.example', verified: true, organization_id: f.tree.a.id, verified_at: expect.any(String) },
    ]);
    // and found by the read other modules use
    expect(await findVerifiedDomain(portal.services.db, 'dealer-a.example')).toMatchObject({ organization_id: f.tree.a.id });
  });

  it('lists the organization’s own claims first, unverified ones included, then its ancestors’ domains, verified or not', async () => {
    const { f } = world;
    await claimAndVerify(world, f.mgrNorth.client, f.tree.north.id, 'north.example');
    expect((await claim(f.mgrNorth.client, f.tree.north.id, 'pending-north.example')).status).toBe(201);
    // the operating contract: "the organization's own and those of its ancestors": an ancestor's
    // claim that is not verified yet is listed too (verified: false), without its record
    expect((await claim(f.orgMgrA.client, f.tree.a.id, 'pending-a.example')).status).toBe(201);
    const listed = await f.mgrNorth.client.get(domainsPath(f.tree.north.id));
    expect(listed.body.map((d: any) => [d.domain, d.verified, d.organization_id === f.tree.north.id ? 'own' : 'above'])).toEqual([
      ['north.example', true, 'own'],
      ['pending-north.example', false, 'own'],
      ['dealer-a.example', true, 'above'],
      ['pending-a.example', false, 'above'],
    ]);
    expect(listed.body[1].verified_at).toBeNull();
    expect(listed.body[1].verification.name).toBe('_partner-portal.pending-north.example');
    expect(listed.body[3]).toEqual({ domain: 'pending-a.example', verified: false, organization_id: f.tree.a.id, verified_at: null });
    // a descendant's claims are not the organization's
    expect((await f.orgMgrA.client.get(domainsPath(f.tree.a.id))).body.map((d: any) => d.domain)).not.toContain('pending-north.example');
    // a claim that is not verified serves nobody: a connection below cannot use it
    const connection = await f.mgrNorth.client.post(`/api/organizations/${f.tree.north.id}/sso-connections`, {
      name: 'North',
      issuer: 'http://127.0.0.1:9',
      client_id: 'north',
      domains: ['pending-a.example'],
    });
    expect(connection.status).toBe(409);
    expect(keyOf(connection)).toBe('domain_not_verified');
  });

  it('refuses the domains of public mail providers (409 domain_not_claimable) and keeps nothing', async () => {
    const { f, portal } = world;
    for (const domain of ['gmail.com', 'outlook.com', 'gmx.de', 'GMAIL.com.', 'web.de', 'hey.com', 'mailbox.org', 'tutanota.com']) {
      const res = await claim(f.orgMgrA.client, f.tree.a.id, domain);
      expect(res.status, domain).toBe(409);
      expect(keyOf(res)).toBe('domain_not_claimable');
    }
    const { rowCount } = await portal.services.db.query(
      `SELECT 1 FROM organization_domains WHERE domain IN ('gmail.com', 'outlook.com', 'gmx.de', 'web.de')`,
    );
    expect(rowCount).toBe(0);
  });

  it('refuses public suffixes (ICANN and private) and any name under a public mail provider (409 domain_not_claimable)', async () => {
    const { f, portal } = world;
    const refused = [
      'co.uk',
      'com.br',
      'github.io', // the Public Suffix List's private section
      'GitHub.IO.',
      'eu.com',
      'foo.ck', // a wildcard rule (*.ck)
      '公司.cn', // xn--55qx5d.cn
      'mail.gmail.com',
      'a.b.outlook.com',
      'smtp.gmx.de',
      'x.bounces.amazon.com', // under a listed name below its registrable domain
    ];
    for (const domain of refused) {
      const res = await claim(f.orgMgrA.client, f.tree.a.id, domain);
      expect(res.status, `${domain} ${res.text}`).toBe(409);
      expect(keyOf(res), domain).toBe('domain_not_claimable');
    }
    const { rowCount } = await portal.services.db.query(
      `SELECT 1 FROM organization_domains WHERE domain IN ('co.uk', 'com.br', 'github.io', 'eu.com', 'mail.gmail.com', 'xn--55qx5d.cn')`,
    );
    expect(rowCount).toBe(0);
    // a registrable domain under a public suffix is a name of its own, also under a suffix the mail list holds (net.ua)
    for (const domain of [
      'sub.dealer.co.uk',
      'dealer.com.br',
      'farmtech.example',
      'dealer.github.io',
      'agro.net.ua',
      'amazon-dealer.example',
    ]) {
      const res = await claim(f.mgrB.client, f.tree.b.id, domain);
      expect(res.status, `${domain} ${res.text}`).toBe(201);
      expect((await f.mgrB.client.delete(domainPath(f.tree.b.id, domain))).status).toBe(204);
    }
  });

  it('keeps international domains in their ASCII (IDNA) form, lower case, without the trailing dot', async () => {
    const { f, dns } = world;
    const claimed = await claim(f.orgMgrA.client, f.tree.a.id, 'Bücher.Example.');
    expect(claimed.status, claimed.text).toBe(201);
    expect(claimed.body.domain).toBe('xn--bcher-kva.example');
    expect(claimed.body.verification.name).toBe('_partner-portal.xn--bcher-kva.example');
    dns.set(claimed.body.verification.name, claimed.body.verification.value);
    // the path takes either form
    const verified = await verify(f.orgMgrA.client, f.tree.a.id, 'bücher.example');
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body).toEqual({ domain: 'xn--bcher-kva.example', verified: true });
    expect((await claim(f.orgMgrA.client, f.tree.a.id, 'xn--bcher-kva.example')).body).toEqual({ ...claimed.body, verified: true });
  });

  it('refuses what is no domain with 400 invalid_domain', async () => {
    const { f, portal } = world;
    const before = (await portal.services.db.query('SELECT 1 FROM organization_domains')).rowCount;
    for (const domain of [
      '',
      '   ',
      'localhost',
      'not a domain',
      'a..example',
      '-dash.example',
      'https://dealer.example/',
      'mail@',
      '1.2.3.4',
      'x'.repeat(300) + '.example',
      42,
      null,
    ]) {
      const res = await f.orgMgrA.client.post(domainsPath(f.tree.a.id), { domain });
      expect(res.status, JSON.stringify(domain)).toBe(400);
      expect(res.body.errors.domain[0].translation_key, JSON.stringify(domain)).toBe('invalid_domain');
    }
    const missing = await f.orgMgrA.client.post(domainsPath(f.tree.a.id), {});
    expect(missing.status).toBe(400);
    expect((await portal.services.db.query('SELECT 1 FROM organization_domains')).rowCount).toBe(before);
  });

  it('answers 404 for a domain the organization has not claimed, an ancestor’s included', async () => {
    const { f } = world;
    expect((await verify(f.orgMgrA.client, f.tree.a.id, 'never-claimed.example')).status).toBe(404);
    expect((await verify(f.orgMgrA.client, f.tree.a.id, 'not a domain')).status).toBe(404);
    expect((await f.orgMgrA.client.delete(domainPath(f.tree.a.id, 'never-claimed.example'))).status).toBe(404);
    // dealer-a's domain, seen from north where it is inherited
    expect((await verify(f.mgrNorth.client, f.tree.north.id, 'dealer-a.example')).status).toBe(404);
    expect((await f.mgrNorth.client.delete(domainPath(f.tree.north.id, 'dealer-a.example'))).status).toBe(404);
    expect((await f.admin.client.get(domainsPath(randomUUID()))).status).toBe(404);
    expect((await claim(f.admin.client, randomUUID(), 'unknown-organization.example')).status).toBe(404);
  });

  it('removes an organization’s own domain (204), which then applies nowhere', async () => {
    const { f, portal } = world;
    await claimAndVerify(world, f.orgMgrA.client, f.tree.a.id, 'removed.example');
    const removed = await f.orgMgrA.client.delete(domainPath(f.tree.a.id, 'removed.example'));
    expect(removed.status).toBe(204);
    expect(await storedClaim(portal, f.tree.a.id, 'removed.example')).toBeUndefined();
    const below = await f.mgrNorth.client.get(domainsPath(f.tree.north.id));
    expect(below.body.map((d: any) => d.domain)).not.toContain('removed.example');
    expect((await f.orgMgrA.client.delete(domainPath(f.tree.a.id, 'removed.example'))).status).toBe(404);
  });

  it('audits every change in its transaction: claim, verify and delete, by the manager who made it', async () => {
    const { f, portal } = world;
    expect((await auditOf(portal, 'removed.example')).map((e) => [e.action, e.actor_user_id, e.organization_id, e.after])).toEqual([
      ['domain.claim', f.orgMgrA.userId, f.tree.a.id, { domain: 'removed.example', verified: false }],
      ['domain.verify', f.orgMgrA.userId, f.tree.a.id, { domain: 'removed.example', verified: true }],
      ['domain.delete', f.orgMgrA.userId, f.tree.a.id, null],
    ]);
    // claiming again is no change: one claim entry for dealer-a.example
    expect((await auditOf(portal, 'dealer-a.example')).map((e) => e.action)).toEqual(['domain.claim', 'domain.verify']);
    // the organization's audit trail shows them
    const trail = await f.orgMgrA.client.get(`/api/audit?organizationId=${f.tree.a.id}&action=domain.claim`);
    expect(trail.status).toBe(200);
    expect(trail.body.entries.map((e: any) => e.target_id)).toContain('removed.example');
  });
});

describe('who may', () => {
  it('change domains: the organizationManagers of the organization or above (403 for others, 401 anonymous)', async () => {
    const { f, dns } = world;
    const claimed = await claim(f.admin.client, f.tree.a.id, 'rights.example');
    expect(claimed.status).toBe(201);
    dns.set(claimed.body.verification.name, claimed.body.verification.value);
    const refused = [
      ['plain member', f.plainA.client, f.tree.a.id],
      ['userManager only', f.userMgrA.client, f.tree.a.id],
      ['member without rights', f.farmer.client, f.tree.a.id],
      ['manager of another tree', f.mgrB.client, f.tree.a.id],
      ['manager of a sub-organization, above it', f.mgrNorth.client, f.tree.a.id],
    ] as const;
    for (const [who, client, organizationId] of refused) {
      expect((await claim(client, organizationId, 'other.example')).status, who).toBe(403);
      expect((await verify(client, organizationId, 'rights.example')).status, who).toBe(403);
      expect((await client.delete(domainPath(organizationId, 'rights.example'))).status, who).toBe(403);
    }
    const anonymous = world.portal.client();
    expect((await claim(anonymous, f.tree.a.id, 'other.example')).status).toBe(401);
    expect((await verify(anonymous, f.tree.a.id, 'rights.example')).status).toBe(401);
    expect((await anonymous.delete(domainPath(f.tree.a.id, 'rights.example'))).status).toBe(401);
    expect((await anonymous.get(domainsPath(f.tree.a.id))).status).toBe(401);
    // the organizationManager of dealer-a, on dealer-a and on a sub-organization
    expect((await verify(f.orgMgrA.client, f.tree.a.id, 'rights.example')).status).toBe(200);
    expect((await claim(f.orgMgrA.client, f.tree.south.id, 'south.example')).status).toBe(201);
    expect((await f.orgMgrA.client.delete(domainPath(f.tree.south.id, 'south.example'))).status).toBe(204);
  });

  it('read domains: any manager of the organization (403 for plain members and other trees)', async () => {
    const { f } = world;
    expect((await f.userMgrA.client.get(domainsPath(f.tree.north.id))).status).toBe(200);
    expect((await f.orgMgrA.client.get(domainsPath(f.tree.north.id))).status).toBe(200);
    expect((await f.plainA.client.get(domainsPath(f.tree.a.id))).status).toBe(403);
    expect((await f.farmer.client.get(domainsPath(f.tree.farm.id))).status).toBe(403);
    expect((await f.mgrB.client.get(domainsPath(f.tree.a.id))).status).toBe(403);
    expect((await f.mgrNorth.client.get(domainsPath(f.tree.a.id))).status).toBe(403);
  });
});
