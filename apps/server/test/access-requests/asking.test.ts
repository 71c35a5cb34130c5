import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortalWith, type TestPortal } from '../support/portal.js';
import { buildFixture, type Fixture } from '../organizations/fixtures.js';
import {
  ask,
  askAndStore,
  auditEntries,
  clientAddress,
  eventually,
  settle,
  storedRequests,
  uniqueDomain,
  verifyDomain,
} from './support.js';

/**
 * POST /api/access-requests (docs/dealer-identity.md, "Access requests"): where a request goes, the
 * same answer for every address, and its limits. The tree is organizations/fixtures.ts':
 * dealer-a (userMgrA, fullA: userManagers; orgMgrA, plainA: not) → north (mgrNorth) → farm 1
 * (farmer, no rights) → barn (nobody); dealer-a → south (nobody); dealer-b (mgrB).
 */
let portal: TestPortal;
let f: Fixture;
const SALES = 'sales@provider.example';

beforeAll(async () => {
  ({ portal, built: f } = await startPortalWith(buildFixture, {
    TRUST_PROXY: 'true',
    SALES_CONTACT_EMAIL: SALES,
    ACCESS_REQUEST_RATE_LIMIT_PER_EMAIL: '3',
    ACCESS_REQUEST_RATE_LIMIT_PER_IP: '5',
  }));
  const language = (userId: string, code: string) =>
    portal.services.db.query('UPDATE users SET language_code = $2 WHERE id = $1', [userId, code]);
  await language(f.mgrNorth.userId, 'nl');
  await language(f.userMgrA.userId, 'de');
  await language(f.farmer.userId, 'fr');
});
afterAll(() => portal?.close());

const mailsTo = (address: string, about: string) => portal.smtp.to(address).filter((m) => m.text.includes(about));

describe('where a request goes', () => {
  it('to the userManagers of the organization that verified the domain, in their language, and stored there', async () => {
    const domain = uniqueDomain('north');
    await verifyDomain(portal, f.tree.north, domain);
    const email = `visitor@${domain}`;
    const res = await ask(portal, { email_address: email, message: 'We are the new\nbranch <b>North</b>', language_code: 'de' });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({});

    const mail = await portal.smtp.waitFor(f.mgrNorth.email, (m) => m.text.includes(email));
    expect(mail.subject).toBe('Anna Berg vraagt toegang tot het Partner Portal');
    expect(mail.text).toContain('> We are the new\n> branch <b>North</b>');
    expect(mail.html).toContain('branch &lt;b&gt;North&lt;/b&gt;');
    expect(mail.links).toContain(`${portal.url}/manage-organization/${f.tree.north.id}#identity`);

    const [stored] = await storedRequests(portal, email);
    expect(stored).toMatchObject({ state: 'PENDING', organization_id: f.tree.north.id, language_code: 'de' });
    expect(stored!.message).toBe('We are the new\nbranch <b>North</b>');
    // only the nearest organization's userManagers are asked
    await portal.mailSettled();
    expect(mailsTo(f.userMgrA.email, email)).toEqual([]);

    const [entry] = await auditEntries(portal, 'access_request.create', stored!.id);
    expect(entry).toMatchObject({ actor_user_id: null, actor_email: email, organization_id: f.tree.north.id });
    expect(entry!.request_id).toBe(res.headers.get('x-request-id'));
    expect(entry!.after).toMatchObject({ email_address: email, first_name: 'Anna', last_name: 'Berg', language_code: 'de' });
  });

  it('to the nearest ancestor with userManagers when the verifying organization has none', async () => {
    const domain = uniqueDomain('barn');
    await verifyDomain(portal, f.tree.barn, domain);
    const email = `farmhand@${domain}`;
    expect((await ask(portal, { email_address: email })).status).toBe(202);
    // barn has nobody, farm 1 only a member without rights: north's userManager is asked
    await portal.smtp.waitFor(f.mgrNorth.email, (m) => m.text.includes(email));
    expect((await storedRequests(portal, email))[0]!.organization_id).toBe(f.tree.north.id);

    const southDomain = uniqueDomain('south');
    await verifyDomain(portal, f.tree.south, southDomain);
    const southEmail = `seller@${southDomain}`;
    expect((await ask(portal, { email_address: southEmail })).status).toBe(202);
    // south has nobody: every userManager of dealer-a, each in their own language; not its organizationManager or plain member
    const german = await portal.smtp.waitFor(f.userMgrA.email, (m) => m.text.includes(southEmail));
    const english = await portal.smtp.waitFor(f.fullA.email, (m) => m.text.includes(southEmail));
    expect(german.subject).toBe('Anna Berg bittet um Zugang zum Partner Portal');
    expect(english.subject).toBe('Anna Berg asks for access to the Partner Portal');
    expect(english.text).toContain(f.tree.a.name);
    await portal.mailSettled();
    expect(mailsTo(f.orgMgrA.email, southEmail)).toEqual([]);
    expect(mailsTo(f.plainA.email, southEmail)).toEqual([]);
    expect(mailsTo(f.mgrNorth.email, southEmail)).toEqual([]);
    expect((await storedRequests(portal, southEmail))[0]!.organization_id).toBe(f.tree.a.id);
  });

  it('to the sales contact when no organization verified the domain; nothing stored', async () => {
    const domain = uniqueDomain('unknown');
    const email = `prospect@${domain}`;
    // an unverified claim of the domain does not count
    await portal.services.db.query(
      `INSERT INTO organization_domains (organization_id, domain, verification_value) VALUES ($1, $2, 'partner-portal-verification=x')`,
      [f.tree.north.id, domain],
    );
    expect((await ask(portal, { email_address: email, message: 'Please call me', language_code: 'es' })).status).toBe(202);
    const mail = await portal.smtp.waitFor(SALES, (m) => m.text.includes(email));
    expect(mail.subject).toBe(`Request for access to the Partner Portal from ${email}`);
    expect(mail.text).toContain('Anna Berg');
    expect(mail.text).toContain('> Please call me');
    expect(mail.text).toContain(domain);
    expect(mail.text).toContain('Preferred language: es');
    await portal.mailSettled();
    expect(await storedRequests(portal, email)).toEqual([]);
    expect(mailsTo(f.mgrNorth.email, email)).toEqual([]);
  });
});

describe('the requester’s language', () => {
  it('is language_code, else the browser’s (Accept-Language), else en', async () => {
    const domain = uniqueDomain('language');
    await verifyDomain(portal, f.tree.north, domain);
    const body = (email: string) => ({ email_address: email, first_name: 'Anna', last_name: 'Berg' });
    const asked = async (email: string, headers: Record<string, string>) => {
      const res = await portal.client().post('/api/access-requests', body(email), {
        headers: { 'x-forwarded-for': clientAddress(), ...headers },
      });
      expect(res.status, res.text).toBe(202);
      return (await eventually(async () => (await storedRequests(portal, email))[0])).language_code;
    };
    expect(await asked(`browser-fr@${domain}`, { 'accept-language': 'fr-BE,fr;q=0.9,en;q=0.5' })).toBe('fr');
    expect(await asked(`browser-pt@${domain}`, { 'accept-language': 'it, pt-PT;q=0.8' })).toBe('pt-BR');
    expect(await asked(`browser-none@${domain}`, { 'accept-language': 'it, ja' })).toBe('en');
    expect(await asked(`no-header@${domain}`, {})).toBe('en');
    // the language the visitor chose wins over the browser's
    const chosen = `chosen@${domain}`;
    const res = await portal
      .client()
      .post(
        '/api/access-requests',
        { ...body(chosen), language_code: 'nl' },
        { headers: { 'x-forwarded-for': clientAddress(), 'accept-language': 'de' } },
      );
    expect(res.status).toBe(202);
    expect((await eventually(async () => (await storedRequests(portal, chosen))[0])).language_code).toBe('nl');
  });
});

describe('the same answer for every address', () => {
  it('a new address, one with an account (a reminder to sign in instead) and a repeated request answer alike', async () => {
    const domain = uniqueDomain('same');
    await verifyDomain(portal, f.tree.north, domain);
    const fresh = `newcomer@${domain}`;
    const answers = [
      await ask(portal, { email_address: fresh }),
      await ask(portal, { email_address: f.farmer.email.toUpperCase() }),
      await ask(portal, { email_address: `nobody-at-all@${uniqueDomain('none')}` }),
    ];
    await portal.smtp.waitFor(f.mgrNorth.email, (m) => m.text.includes(fresh));
    answers.push(await ask(portal, { email_address: fresh, first_name: 'Someone', last_name: 'Else' }));
    const shape = (r: (typeof answers)[number]) => [r.status, r.text, r.headers.get('content-type'), r.headers.get('set-cookie')];
    for (const r of answers) expect(shape(r)).toEqual(shape(answers[0]!));
    expect(answers[0]!.status).toBe(202);

    // the account holder is reminded how to sign in, in their language; nothing is stored for them
    const reminder = await portal.smtp.waitFor(f.farmer.email, (m) => m.links.some((l) => l.startsWith(`${portal.url}/login`)));
    expect(reminder.subject).toBe('Vous avez déjà un compte Partner Portal');
    expect(reminder.links).toContain(`${portal.url}/login?lang=fr`);
    expect(await storedRequests(portal, f.farmer.email)).toEqual([]);

    // the repeated request changes nothing and mails nobody again
    await settle();
    await portal.mailSettled();
    const stored = await storedRequests(portal, fresh);
    expect(stored).toHaveLength(1);
    expect(mailsTo(f.mgrNorth.email, fresh)).toHaveLength(1);
    expect((await auditEntries(portal, 'access_request.create', stored[0]!.id)).length).toBe(1);
  });

  it('refuses bad input with a translated 400 and a request without X-CSRF with 403, storing nothing', async () => {
    const email = `bad@${uniqueDomain('bad')}`;
    const client = portal.client();
    const missing = await client.post('/api/access-requests', { email_address: email, last_name: 'Berg' });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.first_name[0].translation_key).toBe('first_name_required');
    const wrong = await ask(portal, { email_address: 'not-an-address' });
    expect(wrong.status).toBe(400);
    expect((await ask(portal, { email_address: email, language_code: 'it' })).status).toBe(400);
    expect((await ask(portal, { email_address: email, message: 'x'.repeat(2001) })).status).toBe(400);
    const forged = await client.post('/api/access-requests', { email_address: email, first_name: 'A', last_name: 'B' }, { csrf: false });
    expect(forged.status).toBe(403);
    // each refused before the service took it (validation, X-CSRF): no work after the answer to wait for
    expect(await storedRequests(portal, email)).toEqual([]);
  });
});

describe('limits', () => {
  function expect429(res: { status: number; headers: Headers; body: any }) {
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
    expect(res.body.i18NTranslationKey).toBe('too_many_requests');
  }

  it('per address, whichever client asks and however the address is written', async () => {
    const email = `repeat@${uniqueDomain('repeat')}`;
    const statuses: number[] = [];
    for (const variant of [email, email.toUpperCase(), ` ${email} `]) statuses.push((await ask(portal, { email_address: variant })).status);
    expect(statuses).toEqual([202, 202, 202]);
    expect429(await ask(portal, { email_address: email }, clientAddress()));
    // another address is not held up
    expect((await ask(portal, { email_address: `other@${uniqueDomain('repeat')}` })).status).toBe(202);
  });

  it('per client, across addresses; another client is not held up', async () => {
    const office = clientAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await ask(portal, { email_address: `spray-${i}@${uniqueDomain('spray')}` }, office)).status);
    expect(statuses).toEqual([202, 202, 202, 202, 202]);
    expect429(await ask(portal, { email_address: `spray-last@${uniqueDomain('spray')}` }, office));
    expect((await ask(portal, { email_address: `elsewhere@${uniqueDomain('spray')}` }, clientAddress())).status).toBe(202);
  });

  it('a request refused by the limit is not handled', async () => {
    const domain = uniqueDomain('limited');
    await verifyDomain(portal, f.tree.north, domain);
    const email = `limited@${domain}`;
    await askAndStore(portal, { email_address: email });
    await portal.services.db.query(`UPDATE access_requests SET state = 'DECLINED' WHERE lower(email) = lower($1)`, [email]);
    expect((await ask(portal, { email_address: email })).status).toBe(202);
    await eventually(async () => (await storedRequests(portal, email)).find((r) => r.state === 'PENDING'));
    await portal.services.db.query(`UPDATE access_requests SET state = 'DECLINED' WHERE lower(email) = lower($1)`, [email]);
    expect((await ask(portal, { email_address: email })).status).toBe(202);
    await eventually(async () => (await storedRequests(portal, email)).find((r) => r.state === 'PENDING'));
    await portal.services.db.query(`UPDATE access_requests SET state = 'DECLINED' WHERE lower(email) = lower($1)`, [email]);
    expect429(await ask(portal, { email_address: email }));
    await settle();
    await portal.mailSettled();
    expect(await storedRequests(portal, email)).toHaveLength(3);
    expect(mailsTo(f.mgrNorth.email, email)).toHaveLength(3);
  });

  it('holds at once: 200 requests for one address sent together from many clients are answered 202 at most 3 times, and 3 e-mails at most go out', async () => {
    const domain = uniqueDomain('burst');
    await verifyDomain(portal, f.tree.north, domain);
    const email = `burst@${domain}`;
    const answers = await Promise.all(Array.from({ length: 200 }, () => ask(portal, { email_address: email }, clientAddress())));
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((status) => status === 202)).toHaveLength(3);
    expect(statuses.filter((status) => status !== 202 && status !== 429)).toEqual([]);
    await settle();
    await portal.mailSettled();
    // the same address again and again while pending: one pending request kept, and no more e-mails than accepted requests
    expect((await storedRequests(portal, email)).length).toBeLessThanOrEqual(3);
    expect(mailsTo(f.mgrNorth.email, email).length).toBeLessThanOrEqual(3);
  });
});
