import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createOrg } from '../organizations/fixtures.js';
import { auditOf, claim, claimAndVerify, domainsPath, keyOf, startDomainWorld, verify, type DomainWorld } from './support.js';

/**
 * A verified domain serves the whole subtree of the organization that verified it, so it is one
 * organization's only (docs/dealer-identity.md, "Verified domains"): nobody else anywhere in the
 * tree claims or verifies it, and of two organizations verifying at once one wins.
 */
let world: DomainWorld;

beforeAll(async () => {
  world = await startDomainWorld();
});
afterAll(() => world?.close());

const verifiedBy = async (domain: string) =>
  (
    await world.portal.services.db.query<{ organization_id: string }>(
      'SELECT organization_id FROM organization_domains WHERE domain = $1 AND verified_at IS NOT NULL',
      [domain],
    )
  ).rows.map((r) => r.organization_id);

describe('a domain verified in one organization', () => {
  it('cannot be claimed by any other: sibling, ancestor, descendant or another tree (409 domain_claimed)', async () => {
    const { f } = world;
    await claimAndVerify(world, f.mgrNorth.client, f.tree.north.id, 'taken.example');
    const others = [
      ['sibling (south)', f.orgMgrA.client, f.tree.south.id],
      ['parent (dealer-a)', f.orgMgrA.client, f.tree.a.id],
      ['root', f.admin.client, f.tree.root.id],
      ['descendant (farm-1)', f.mgrNorth.client, f.tree.farm.id],
      ['deeper descendant (barn)', f.mgrNorth.client, f.tree.barn.id],
      ['another tree (dealer-b)', f.mgrB.client, f.tree.b.id],
    ] as const;
    for (const [where, client, organizationId] of others) {
      const res = await claim(client, organizationId, 'TAKEN.example.');
      expect(res.status, where).toBe(409);
      expect(keyOf(res), where).toBe('domain_claimed');
    }
    expect(await verifiedBy('taken.example')).toEqual([f.tree.north.id]);
    // the organization that verified it may claim it again
    const own = await claim(f.mgrNorth.client, f.tree.north.id, 'taken.example');
    expect(own.status).toBe(201);
    expect(own.body.verified).toBe(true);
    // one claim entry only, and none for the refusals
    expect((await auditOf(world.portal, 'taken.example')).map((e) => e.action)).toEqual(['domain.claim', 'domain.verify']);
  });

  it('cannot be verified by an organization that claimed it before, even with its own record published', async () => {
    const { f, dns } = world;
    const early = await claim(f.mgrB.client, f.tree.b.id, 'first-come.example');
    expect(early.status).toBe(201);
    const winner = await claim(f.orgMgrA.client, f.tree.a.id, 'first-come.example');
    expect(winner.body.verification.value).not.toBe(early.body.verification.value);
    dns.set('_partner-portal.first-come.example', winner.body.verification.value, early.body.verification.value);
    expect((await verify(f.orgMgrA.client, f.tree.a.id, 'first-come.example')).status).toBe(200);
    const late = await verify(f.mgrB.client, f.tree.b.id, 'first-come.example');
    expect(late.status).toBe(409);
    expect(keyOf(late)).toBe('domain_claimed');
    expect(await verifiedBy('first-come.example')).toEqual([f.tree.a.id]);
    // dealer-b still sees its own claim, unverified, and not dealer-a's domain
    const listed = await f.mgrB.client.get(domainsPath(f.tree.b.id));
    expect(listed.body).toEqual([expect.objectContaining({ domain: 'first-come.example', verified: false, organization_id: f.tree.b.id })]);
    // once dealer-a removes it, dealer-b may verify it
    expect((await f.orgMgrA.client.delete(`${domainsPath(f.tree.a.id)}/first-come.example`)).status).toBe(204);
    expect((await verify(f.mgrB.client, f.tree.b.id, 'first-come.example')).status).toBe(200);
    expect(await verifiedBy('first-come.example')).toEqual([f.tree.b.id]);
  });

  it('is verified by one of two organizations verifying at the same moment; the other gets 409 domain_claimed', async () => {
    const { f, dns, portal } = world;
    for (let round = 1; round <= 3; round++) {
      const domain = `race-${round}.example`;
      const east = await createOrg(portal, f.tree.root, `East ${round}`);
      const west = await createOrg(portal, f.tree.root, `West ${round}`);
      const managers = await Promise.all(
        [east, west].map((org) =>
          createMember(portal, org, `racer${round}`, (r) => (r.partner_portal.user_sub_organization_manager = true)),
        ),
      );
      const claims = await Promise.all([east, west].map((org, i) => claim(managers[i]!.client, org.id, domain)));
      // both records published; DNS answers late, so that both requests have passed every check before either writes
      dns.set(`_partner-portal.${domain}`, ...claims.map((c) => c.body.verification.value as string));
      dns.delay(`_partner-portal.${domain}`, 150);
      const answers = await Promise.all([east, west].map((org, i) => verify(managers[i]!.client, org.id, domain)));
      expect(answers.map((a) => a.status).sort(), answers.map((a) => a.text).join(' ')).toEqual([200, 409]);
      expect(keyOf(answers.find((a) => a.status === 409)!)).toBe('domain_claimed');
      const winner = answers[0]!.status === 200 ? east : west;
      expect(await verifiedBy(domain)).toEqual([winner.id]);
      expect((await auditOf(portal, domain)).filter((e) => e.action === 'domain.verify').map((e) => e.organization_id)).toEqual([
        winner.id,
      ]);
    }
  });
});
