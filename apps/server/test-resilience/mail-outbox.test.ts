import { afterAll, describe, expect, it } from 'vitest';
import { createFreshDatabase, testDatabaseUrl } from '../test/support/database.js';
import { freePort } from '../test/support/portal.js';
import { SmtpSink } from '../test/support/smtp.js';
import { api, login, spawnServer, sql, waitForHealth } from './support/server.js';

/**
 * E-mails across a crash (README.md, "E-mail"): the built portal (production) invites a few
 * addresses while its mail server refuses them (451), then, while it sends them again and the mail
 * server holds the answers, it is killed with SIGKILL. Every invitation's e-mail was written with
 * the invitation, so after a restart each arrives, once, with a link that works: the row locks of
 * the e-mails in flight died with the killed process's connections.
 */
const base = testDatabaseUrl();
if (!base) throw new Error('the resilience suite needs PostgreSQL: set DATABASE_URL (or TEST_DATABASE_URL)');

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

const until = async (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('kill -9 between the change and its e-mail', () => {
  it('sends every invitation’s e-mail once after a restart', async () => {
    const database = await createFreshDatabase(base);
    cleanups.push(() => database.drop());
    const smtp = await new SmtpSink().start();
    cleanups.push(() => smtp.stop());
    smtp.refuseNext(Infinity, 451);
    const port = await freePort();
    const env = {
      DATABASE_URL: database.url,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SMTP_URL: smtp.url,
      MAIL_RETRY_BASE_SECONDS: '1',
    };
    const first = spawnServer(env);
    cleanups.push(() => first.stop());
    await waitForHealth(first.url, { server: first });
    const cookie = await login(first.url);
    const rootId = (await api(first.url, 'GET', '/api/identity/user-info', { cookie })).body.organizationId as string;

    const addresses = Array.from({ length: 5 }, (_, i) => `crash-${i}@example.com`);
    const invitations = new Map<string, string>();
    for (const email of addresses) {
      const res = await api(first.url, 'POST', `/api/organizations/${rootId}/invitations`, { cookie, body: { email_address: email } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      invitations.set(email, res.body.invitation.invitation_id as string);
    }
    // every e-mail was tried and refused; then the mail server stops answering, and the retries hang in flight
    await until('a first, refused attempt of each e-mail', () => addresses.every((a) => smtp.attempts.includes(a)));
    smtp.refuseNext(0);
    smtp.delayMs = 20_000;
    const tried = smtp.attempts.length;
    await until('retries in flight', () => smtp.attempts.length > tried);
    await first.kill9();

    const before = await sql<{ state: string; attempts: number; n: number }>(
      database.url,
      `SELECT state, attempts, count(*)::int AS n FROM mail_outbox WHERE kind = 'invitation' GROUP BY state, attempts`,
    );
    expect(before, 'each e-mail pending after its one refused attempt; the attempts in flight died with the process').toEqual([
      { state: 'pending', attempts: 1, n: addresses.length },
    ]);
    expect(smtp.messages).toEqual([]);

    smtp.delayMs = 0;
    const second = spawnServer(env);
    cleanups.push(() => second.stop());
    await waitForHealth(second.url, { server: second });
    await until('every e-mail sent', async () => {
      const rows = await sql<{ n: number }>(database.url, `SELECT count(*)::int AS n FROM mail_outbox WHERE state = 'sent'`);
      return rows[0]!.n === addresses.length;
    });
    for (const email of addresses) {
      const mails = smtp.to(email);
      expect(mails, email).toHaveLength(1);
      const link = new URL(mails[0]!.links.find((l) => l.includes('/invitation/'))!);
      expect(link.pathname).toBe(`/invitation/${invitations.get(email)}`);
      const read = await api(second.url, 'GET', `/api/invitations/${invitations.get(email)}?code=${link.searchParams.get('code')}`);
      expect(read.status, 'the link of the e-mail sent after the restart works').toBe(200);
    }
    const pendingOrKept = await sql<{ n: number }>(
      database.url,
      `SELECT count(*)::int AS n FROM mail_outbox WHERE state <> 'sent' OR sealed_body IS NOT NULL OR text_body <> '(sent through SMTP; body not kept)'`,
    );
    expect(pendingOrKept[0]!.n, 'sent, and no body kept').toBe(0);
    expect(second.errors()).toEqual([]);
    console.log(
      `mail outbox, kill -9: ${addresses.length} invitations, ${smtp.attempts.length} attempts in all, each e-mail delivered once after the restart`,
    );
  });
});
