import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Packet } from 'dns2';
import { findVerifiedDomain } from '../../src/modules/domains/queries.js';
import { createMember, createOrg, type ActorRef, type Org } from '../organizations/fixtures.js';
import { auditOf, claimAndVerify, domainsPath, keyOf, startDomainWorld, storedClaim, verify, type DomainWorld } from './support.js';

/**
 * The re-verification of verified domains (modules/domains/recheck.ts): a round looks again at the
 * verified domains last checked DOMAIN_RECHECK_HOURS (24) ago; a record that is gone takes the
 * verification away and tells the organization's organizationManagers in their language; a DNS
 * server that does not answer changes nothing. Tests call the round with a later time.
 */
let world: DomainWorld;
let dealer: Org;
let shop: Org;
let managers: { en: ActorRef; nl: ActorRef; de: ActorRef };
let userManager: ActorRef;
let plain: ActorRef;

const HOUR = 3600_000;
const later = (hours: number) => new Date(Date.now() + hours * HOUR);
const recheck = (now: Date) => world.portal.app.modules.domainRecheck.recheckDue(now);
const DOMAINS = ['kept.example', 'gone.example', 'replaced.example', 'silent.example', 'servfail.example', 'refused.example'];
const values = new Map<string, string>();

beforeAll(async () => {
  world = await startDomainWorld();
  const { portal, f } = world;
  dealer = await createOrg(portal, f.tree.root, 'Dealer Recheck');
  shop = await createOrg(portal, dealer, 'Shop');
  managers = {
    en: await createMember(portal, dealer, 'Emma', (r) => (r.partner_portal.user_sub_organization_manager = true), { language: 'en' }),
    nl: await createMember(portal, dealer, 'Noor', (r) => (r.partner_portal.user_sub_organization_manager = true), { language: 'nl' }),
    de: await createMember(portal, dealer, 'Dieter', (r) => (r.partner_portal.user_full_permission = true), { language: 'de' }),
  };
  userManager = await createMember(portal, dealer, 'Ulla', (r) => (r.partner_portal.user_user_manager = true));
  plain = await createMember(portal, dealer, 'Piet', () => undefined, { language: 'nl' });
  for (const domain of DOMAINS) values.set(domain, (await claimAndVerify(world, managers.en.client, dealer.id, domain)).value);
});
afterAll(() => world?.close());

const mailsAbout = (email: string, domain: string) => world.portal.smtp.to(email).filter((m) => m.subject.includes(domain));
const record = (domain: string) => `_partner-portal.${domain}`;

describe('the re-verification round', () => {
  it('looks only at domains last checked DOMAIN_RECHECK_HOURS ago or earlier', async () => {
    expect(await recheck(new Date())).toEqual({ kept: 0, lost: 0, unanswered: 0 });
    expect(await recheck(later(23))).toEqual({ kept: 0, lost: 0, unanswered: 0 });
  });

  it('keeps what is found, takes verification away when DNS says the record is gone, and leaves alone what DNS did not answer', async () => {
    const { dns, portal } = world;
    const before = new Map<string, Awaited<ReturnType<typeof storedClaim>>>();
    for (const domain of DOMAINS) before.set(domain, await storedClaim(portal, dealer.id, domain));
    dns.remove(record('gone.example'));
    dns.set(record('replaced.example'), 'partner-portal-verification=someone-elses-value', 'v=spf1 -all');
    dns.silence(record('silent.example'));
    dns.fail(record('servfail.example'));
    dns.fail(record('refused.example'), Packet.RCODE.REFUSED);

    expect(await recheck(later(25))).toEqual({ kept: 1, lost: 2, unanswered: 3 });

    for (const domain of ['gone.example', 'replaced.example']) {
      const now = await storedClaim(portal, dealer.id, domain);
      expect(now?.verified_at, domain).toBeNull();
      expect(now!.checked_at!.getTime(), domain).toBeGreaterThan(before.get(domain)!.checked_at!.getTime());
      expect(await findVerifiedDomain(portal.services.db, domain)).toBeUndefined();
    }
    for (const domain of ['silent.example', 'servfail.example', 'refused.example']) {
      // nothing changed, not even checked_at: the next round asks again
      expect(await storedClaim(portal, dealer.id, domain), domain).toEqual(before.get(domain));
    }
    const kept = await storedClaim(portal, dealer.id, 'kept.example');
    expect(kept!.checked_at!.getTime()).toBeGreaterThan(before.get('kept.example')!.checked_at!.getTime());
    expect(kept!.verified_at).not.toBeNull();

    const listed = await managers.en.client.get(domainsPath(dealer.id));
    expect(Object.fromEntries(listed.body.map((d: any) => [d.domain, d.verified]))).toEqual({
      'gone.example': false,
      'kept.example': true,
      'refused.example': true,
      'replaced.example': false,
      'servfail.example': true,
      'silent.example': true,
    });
  });

  it('audits the loss with no actor', async () => {
    for (const domain of ['gone.example', 'replaced.example']) {
      const entries = await auditOf(world.portal, domain);
      expect(entries.map((e) => e.action)).toEqual(['domain.claim', 'domain.verify', 'domain.unverified']);
      expect(entries[2]).toMatchObject({ actor_user_id: null, organization_id: dealer.id, after: { domain, verified: false } });
    }
    expect((await auditOf(world.portal, 'silent.example')).map((e) => e.action)).toEqual(['domain.claim', 'domain.verify']);
  });

  it('tells each organizationManager in their language, with the organization’s page; nobody else', async () => {
    const { smtp, url } = world.portal;
    const link = `${url}/manage-organization/${dealer.id}#identity`;
    const expected = [
      [managers.en, 'is no longer verified for Dealer Recheck', 'Signing in through the single sign-on connections'],
      [managers.nl, 'is niet langer geverifieerd voor Dealer Recheck', 'Aanmelden via de single sign-on-koppelingen'],
      [managers.de, 'ist für Dealer Recheck nicht mehr verifiziert', 'Die Anmeldung über die Single-Sign-on-Verbindungen'],
    ] as const;
    for (const [manager, subject, signIn] of expected) {
      for (const domain of ['gone.example', 'replaced.example']) {
        const mail = await smtp.waitFor(manager.email, (m) => m.subject.includes(domain));
        expect(mail.subject).toBe(`${domain} ${subject}`);
        expect(mail.text).toContain(signIn);
        expect(mail.text).toContain(`_partner-portal.${domain}`);
        expect(mail.links).toContain(link);
        expect(mail.html).toContain(link);
        expect(mailsAbout(manager.email, domain)).toHaveLength(1);
      }
      expect(mailsAbout(manager.email, 'silent.example')).toEqual([]);
    }
    expect(smtp.to(userManager.email)).toEqual([]);
    expect(smtp.to(plain.email)).toEqual([]);
  });

  it('writes the managers’ e-mails in the transaction that takes the verification away (the outbox)', async () => {
    // now() is the time its transaction began: the audit entry and the e-mails share it only when written in one
    const { rows } = await world.portal.services.db.query<{ audited: Date; written: Date[] }>(
      `SELECT a.occurred_at AS audited, array_agg(m.created_at) AS written
       FROM audit_log a JOIN outbox m ON m.kind = 'email' AND m.payload->>'mail_kind' = 'domain-unverified' AND m.payload->>'subject' LIKE 'gone.example %'
       WHERE a.action = 'domain.unverified' AND a.target_id = 'gone.example'
       GROUP BY a.occurred_at`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.written.length).toBeGreaterThan(0);
    for (const written of rows[0]!.written) expect(new Date(written).getTime()).toBe(new Date(rows[0]!.audited).getTime());
  });

  it('asks again next round about what DNS did not answer, and mails nobody twice', async () => {
    const { dns } = world;
    dns.set(record('silent.example'), values.get('silent.example')!);
    // kept.example is due again at this time too; servfail and refused still fail
    expect(await recheck(later(25))).toEqual({ kept: 2, lost: 0, unanswered: 2 });
    expect((await storedClaim(world.portal, dealer.id, 'silent.example'))?.verified_at).not.toBeNull();
    expect(mailsAbout(managers.en.email, 'gone.example')).toHaveLength(1);
  });

  it('shares a round between instances: two rounds at once look at each domain once', async () => {
    const { dns } = world;
    for (const domain of ['servfail.example', 'refused.example']) dns.set(record(domain), values.get(domain)!);
    // due now, and both rounds at the real time: a round at a later time (as the tests above run
    // them) finds a domain just looked at by the other round due again, as the real clock never would
    await world.portal.services.db.query(
      "UPDATE organization_domains SET checked_at = now() - interval '25 hours' WHERE verified_at IS NOT NULL",
    );
    const rounds = await Promise.all([recheck(new Date()), recheck(new Date())]);
    const sum = rounds.reduce((a, r) => ({ kept: a.kept + r.kept, lost: a.lost + r.lost, unanswered: a.unanswered + r.unanswered }));
    expect(sum).toEqual({ kept: 4, lost: 0, unanswered: 0 });
  });

  it('tells the managers of the nearest organization above when the organization has none', async () => {
    const { dns, portal } = world;
    const { value } = await claimAndVerify(world, managers.nl.client, shop.id, 'shop.example');
    expect(value).toMatch(/^partner-portal-verification=/);
    dns.remove(record('shop.example'));
    expect((await recheck(later(25))).lost).toBe(1);
    const mail = await portal.smtp.waitFor(managers.nl.email, (m) => m.subject.includes('shop.example'));
    expect(mail.subject).toBe('shop.example is niet langer geverifieerd voor Shop');
    expect(mail.links).toContain(`${portal.url}/manage-organization/${shop.id}#identity`);
  });
});

describe('verifying again by hand', () => {
  it('takes verification away when DNS says the record is gone (409), audited with the manager and mailed', async () => {
    const { dns, portal } = world;
    dns.remove(record('kept.example'));
    const res = await verify(managers.en.client, dealer.id, 'kept.example');
    expect(res.status).toBe(409);
    expect(keyOf(res)).toBe('domain_verification_failed');
    expect((await storedClaim(portal, dealer.id, 'kept.example'))?.verified_at).toBeNull();
    expect((await auditOf(portal, 'kept.example')).at(-1)).toMatchObject({
      action: 'domain.unverified',
      actor_user_id: managers.en.userId,
    });
    await portal.smtp.waitFor(managers.de.email, (m) => m.subject.includes('kept.example'));
    // published again: verified again
    dns.set(record('kept.example'), values.get('kept.example')!);
    expect((await verify(managers.en.client, dealer.id, 'kept.example')).status).toBe(200);
  });

  it('changes nothing when DNS does not answer (409, still verified)', async () => {
    const { dns, portal } = world;
    dns.silence(record('servfail.example'));
    const res = await verify(managers.en.client, dealer.id, 'servfail.example');
    expect(res.status).toBe(409);
    expect(keyOf(res)).toBe('domain_verification_failed');
    expect((await storedClaim(portal, dealer.id, 'servfail.example'))?.verified_at).not.toBeNull();
    dns.set(record('servfail.example'), values.get('servfail.example')!);
  });

  it('answers 409, never a server error, while the DNS server is down; the round then loses nothing', async () => {
    const { dns, portal } = world;
    await dns.stop();
    try {
      const res = await verify(managers.en.client, dealer.id, 'refused.example');
      expect(res.status).toBe(409);
      expect(keyOf(res)).toBe('domain_verification_failed');
      const round = await recheck(later(100));
      expect(round.lost).toBe(0);
      expect(round.unanswered).toBeGreaterThan(0);
      expect((await storedClaim(portal, dealer.id, 'refused.example'))?.verified_at).not.toBeNull();
    } finally {
      await dns.start();
    }
    expect((await verify(managers.en.client, dealer.id, 'refused.example')).status).toBe(200);
  });
});
