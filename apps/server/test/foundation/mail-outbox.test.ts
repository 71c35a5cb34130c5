import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { closeServices, createLogger, createServices } from '../../src/main.js';
import { startMailWorker, type MailWorker } from '../../src/modules/mail/outbox-worker.js';
import type { Services } from '../../src/services.js';
import { needsPostgres } from '../support/needs.js';
import { ADMIN_EMAIL, startPortal, type TestPortal } from '../support/portal.js';

/**
 * E-mails leave through the outbox (README.md, "E-mail"): the change writes its e-mail
 * in its own transaction and answers without waiting for the mail server; the worker sends it,
 * and an e-mail the server does not take (a temporary 451) is sent again until it is taken, once.
 */

interface OutboxRow {
  state: string;
  attempts: number;
  text_body: string | null;
  html_body: string | null;
  sealed_body: string | null;
  last_error: string | null;
  completed_at: string | null;
}

const outboxOf = async (portal: TestPortal, recipient: string) =>
  (
    await portal.services.db.query<OutboxRow>(
      `SELECT state, attempts, payload->>'text_body' AS text_body, payload->>'html_body' AS html_body,
              payload->>'sealed_body' AS sealed_body, last_error, completed_at
       FROM outbox WHERE kind = 'email' AND lower(recipient) = lower($1) ORDER BY created_at`,
      [recipient],
    )
  ).rows;

/** Everything stored of the e-mails to an address, as one text (to look for a secret in it). */
const storedText = async (portal: TestPortal, recipient: string) =>
  (
    await portal.services.db.query<{ row: string }>(
      `SELECT row_to_json(m)::text AS row FROM outbox m WHERE kind = 'email' AND lower(recipient) = lower($1)`,
      [recipient],
    )
  ).rows
    .map((r) => r.row)
    .join('\n');

const invite = async (portal: TestPortal, email: string) => {
  const admin = await portal.sessionFor(portal.adminUserId);
  return admin.post(`/api/organizations/${portal.rootOrganizationId}/invitations`, { email_address: email });
};

describe('the mail outbox, with SMTP', () => {
  let portal: TestPortal;
  beforeAll(async () => {
    portal = await startPortal({ MAIL_RETRY_BASE_SECONDS: '0.05' });
  });
  afterAll(() => portal?.close());

  it('answers an invitation at once while the mail server is slow, the body sealed until sent', async () => {
    const email = 'slow-server@example.com';
    portal.smtp.delayMs = 3000;
    try {
      const started = Date.now();
      const res = await invite(portal, email);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(Date.now() - started, 'the request did not wait for the mail server').toBeLessThan(2000);
      const [pending] = await outboxOf(portal, email);
      expect(pending).toMatchObject({ state: 'pending', text_body: null, html_body: null, completed_at: null });
      expect(pending!.sealed_body).toMatch(/^ey[\w-]+\.\.[\w-]+\.[\w-]+\.[\w-]+$/); // compact JWE, dir: no key
      expect(pending!.sealed_body).not.toContain('invitation');

      const mail = await portal.smtp.waitFor(email);
      const code = new URL(mail.links.find((l) => l.includes('/invitation/'))!).searchParams.get('code')!;
      await expect.poll(async () => (await outboxOf(portal, email))[0]?.state).toBe('delivered');
      const [sent] = await outboxOf(portal, email);
      expect(sent).toMatchObject({ attempts: 1, sealed_body: null, text_body: '(sent through SMTP; body not kept)' });
      expect(await storedText(portal, email), 'the code is nowhere in the outbox').not.toContain(code);
    } finally {
      portal.smtp.delayMs = 0;
    }
  });

  it('sends a reset e-mail once after the mail server refused it twice (451)', async () => {
    portal.smtp.refuseNext(2, 451);
    const before = portal.smtp.to(ADMIN_EMAIL).length;
    expect((await portal.client().post('/api/identity/forgot-password', { email_address: ADMIN_EMAIL })).status).toBe(204);
    await portal.smtp.waitFor(ADMIN_EMAIL, () => portal.smtp.to(ADMIN_EMAIL).length > before);
    await expect.poll(async () => (await outboxOf(portal, ADMIN_EMAIL)).at(-1)?.state).toBe('delivered');
    const row = (await outboxOf(portal, ADMIN_EMAIL)).at(-1)!;
    expect(row.attempts).toBe(3);
    expect(row.last_error).toMatch(/451/);
    expect(portal.smtp.attempts.filter((a) => a === ADMIN_EMAIL)).toHaveLength(3);
    await portal.mailSettled();
    expect(portal.smtp.to(ADMIN_EMAIL).length - before, 'taken once, delivered once').toBe(1);
  });

  it('gives up at once on a permanent refusal (550), keeping no body', async () => {
    const email = 'no-such-mailbox@example.com';
    portal.smtp.refuseNext(1, 550);
    expect((await invite(portal, email)).status).toBe(201);
    await expect.poll(async () => (await outboxOf(portal, email))[0]?.state).toBe('failed');
    const [row] = await outboxOf(portal, email);
    expect(row).toMatchObject({ attempts: 1, sealed_body: null, text_body: '(sent through SMTP; body not kept)' });
    expect(row!.last_error).toMatch(/550/);
    expect(portal.smtp.attempts.filter((a) => a === email)).toHaveLength(1);
    expect(portal.smtp.to(email)).toEqual([]);
  });

  it('writes nothing when the change is refused (the e-mail is part of its transaction)', async () => {
    const email = 'twice@example.com';
    expect((await invite(portal, email)).status).toBe(201);
    expect((await invite(portal, email)).status).toBe(409);
    await portal.mailSettled();
    expect(await outboxOf(portal, email)).toHaveLength(1);
    expect(portal.smtp.to(email)).toHaveLength(1);
  });
});

describe('the mail outbox, without SMTP_URL (development)', () => {
  let portal: TestPortal;
  const lines: string[] = [];
  beforeAll(async () => {
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    portal = await startPortal({ SMTP_URL: '', LOG_LEVEL: 'info' }, { logDestination: destination });
  });
  afterAll(() => portal?.close());

  it('keeps the e-mail with its body and logs its links', async () => {
    const email = 'kept@example.com';
    expect((await invite(portal, email)).status).toBe(201);
    await expect.poll(async () => (await outboxOf(portal, email))[0]?.state).toBe('kept');
    const [row] = await outboxOf(portal, email);
    expect(row!.text_body).toContain('/invitation/');
    expect(row!.sealed_body).toBeNull();
    const logged = lines.map((l) => JSON.parse(l) as { msg?: string; to?: string; text?: string }).find((l) => l.to === email);
    expect(logged?.msg).toBe('e-mail kept in the outbox (no SMTP_URL)');
    expect(logged?.text).toContain('/invitation/');
    expect(portal.smtp.messages).toEqual([]);
  });
});

/**
 * Two instances on one PostgreSQL database share the outbox (FOR UPDATE SKIP LOCKED): each e-mail
 * is sent exactly once, by one of them, refusals and retries included.
 */
needsPostgres('the mail outbox of two instances on one database', () => {
  let portal: TestPortal;
  let second: Services;
  let secondWorker: MailWorker;

  beforeAll(async () => {
    portal = await startPortal({ MAIL_RETRY_BASE_SECONDS: '0.05' });
    const c = portal.config;
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: c.DATABASE_URL!,
      DATABASE_POOL_SIZE: '5',
      PUBLIC_URL: c.PUBLIC_URL!,
      SMTP_URL: portal.smtp.url,
      MAIL_RETRY_BASE_SECONDS: '0.05',
    });
    second = await createServices(config, createLogger(config));
    secondWorker = await startMailWorker({ db: second.db, config, log: second.log, keyEncryption: second.secrets.keyEncryption });
  });
  afterAll(async () => {
    await secondWorker?.stop();
    if (second) await closeServices(second);
    await portal?.close();
  });

  it('sends each e-mail once, the work shared by both', async () => {
    const MAILS = 40;
    // slow answers, so that both instances have e-mails in flight at once, and a few refusals to retry
    portal.smtp.delayMs = 30;
    portal.smtp.refuseNext(6, 451);
    const addresses = Array.from({ length: MAILS }, (_, i) => `shared-${i}@example.com`);
    for (let batch = 0; batch < MAILS / 10; batch++) {
      const services = batch % 2 === 0 ? portal.services : second;
      await services.db.transaction(async (tx) => {
        for (const to of addresses.slice(batch * 10, batch * 10 + 10))
          await services.mailer.enqueue({ to, subject: `Hello ${to}`, text: `Hi ${to}`, html: `<p>Hi ${to}</p>`, kind: 'test' }, { tx });
      });
    }
    await portal.mailSettled(30_000);
    for (const to of addresses) expect(portal.smtp.to(to), to).toHaveLength(1);
    const { rows } = await portal.services.db.query<{ state: string; n: number }>(
      `SELECT state, count(*)::int AS n FROM outbox WHERE kind = 'email' AND payload->>'mail_kind' = 'test' GROUP BY state`,
    );
    expect(rows).toEqual([{ state: 'delivered', n: MAILS }]);
    const [a, b] = [portal.mailWorker.stats.delivered, secondWorker.stats.delivered];
    expect(a + b).toBe(MAILS);
    expect(a, 'the first instance sent some').toBeGreaterThan(0);
    expect(b, 'the second instance sent some').toBeGreaterThan(0);
    portal.smtp.delayMs = 0;
  });
});
