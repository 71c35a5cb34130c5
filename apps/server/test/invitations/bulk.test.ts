import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invitationEmail } from '../../src/modules/mail/messages.js';
import { startPortal, type TestPortal } from '../support/portal.js';
import { buildFixtureWithLoyaltyManager, createMember, createOrg, rights, type Fixture, type Org } from '../organizations/fixtures.js';

/**
 * Bulk invitations from a CSV file: a 200-row file mixing valid and invalid rows, its dry run
 * checked row by row, then sent, the e-mails read from the SMTP sink, and the report downloaded.
 */
let portal: TestPortal;
let f: Fixture;
let org: Org;
const ALLOWED = ['bulk-org.example.com', 'partner.example'];

beforeAll(async () => {
  portal = await startPortal();
  f = await buildFixtureWithLoyaltyManager(portal);
  org = await createOrg(portal, f.tree.a, 'Bulk Org');
  const domains = await f.admin.client.put(`/api/organizations/${org.id}/allowed-email-domains`, { allowed_email_domains: ALLOWED });
  expect(domains.status).toBe(204);
});
afterAll(() => portal?.close());

const LANGUAGES = ['en', 'nl', 'de', 'fr', 'es', 'pt-BR', ''];

interface Row {
  email: string;
  first: string;
  last: string;
  language: string;
  expected: string;
}

/** The 200 rows, with the verdict each should get. */
async function buildRows(): Promise<Row[]> {
  const members = await Promise.all(Array.from({ length: 10 }, (_, i) => createMember(portal, org, `existing${i}`, rights())));
  const invited: string[] = [];
  for (let i = 0; i < 10; i++) {
    const email = `pending${i}@partner.example`;
    const res = await f.userMgrA.client.post(`/api/organizations/${org.id}/invitations`, { email_address: email, language_code: 'en' });
    expect(res.status).toBe(201);
    invited.push(email);
  }
  const rows: Row[] = [];
  for (let i = 0; i < 200; i++) {
    const kind = i % 10;
    const n = Math.floor(i / 10);
    if (kind <= 4) {
      rows.push({
        email: `new${i}@${i % 2 ? 'partner.example' : 'bulk-org.example.com'}`,
        first: `First${i}`,
        last: `Last ${i}`,
        language: LANGUAGES[i % LANGUAGES.length]!,
        expected: 'ok',
      });
    } else if (kind === 5) {
      rows.push({
        email: [`not-an-address-${i}`, `a${i}@`, '', `two@@signs${i}.example`][n % 4]!,
        first: 'X',
        last: 'Y',
        language: 'en',
        expected: 'invalid_address',
      });
    } else if (kind === 6) {
      rows.push({ email: `x${i}@elsewhere.example`, first: 'X', last: 'Y', language: 'en', expected: 'domain_not_allowed' });
    } else if (kind === 7) {
      // the address of row i-7 (an ok row) again, in other letter case
      rows.push({ email: rows[i - 7]!.email.toUpperCase(), first: 'Again', last: 'Again', language: 'en', expected: 'duplicate_in_file' });
    } else if (kind === 8) {
      rows.push({
        email: `lang${i}@partner.example`,
        first: 'L',
        last: 'L',
        language: n % 2 ? 'xx' : 'it',
        expected: 'invalid_language',
      });
    } else if (n < 10) {
      rows.push({
        email: n % 2 ? members[n]!.email : members[n]!.email.toUpperCase(),
        first: 'M',
        last: 'M',
        language: 'en',
        expected: 'already_member',
      });
    } else {
      rows.push({ email: invited[n - 10]!, first: 'I', last: 'I', language: 'nl', expected: 'already_invited' });
    }
  }
  return rows;
}

/** A CSV as a spreadsheet exports it: header, quoted cells where needed, CRLF. */
function toCsv(rows: Row[]): string {
  const cell = (v: string) => (/[",;\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  return (
    ['email,first_name,last_name,language', ...rows.map((r) => [r.email, r.first, r.last, r.language].map(cell).join(','))].join('\r\n') +
    '\r\n'
  );
}

describe('bulk invitations from a 200-row CSV', () => {
  let rows: Row[];
  let csv: string;

  it('the dry run answers per row: ok, invalid address, domain not allowed, already a member, already invited, duplicate within the file', async () => {
    rows = await buildRows();
    csv = toCsv(rows);
    await portal.mailSettled();
    const mailsBefore = portal.smtp.messages.length;
    const res = await f.userMgrA.client.post(`/api/organizations/${org.id}/invitations/bulk/dry-run`, { csv });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ organization_id: org.id, dry_run: true, total: 200, ok: 100, refused: 100 });
    expect(res.body.rows).toHaveLength(200);
    rows.forEach((row, i) => {
      const got = res.body.rows[i];
      expect({ line: got.line, outcome: got.outcome }, `row ${i} (${row.email})`).toEqual({ line: i + 2, outcome: row.expected });
      expect(got.first_name).toBe(row.first);
      expect(got.last_name).toBe(row.last);
      // a refused language is answered as the file gave it, so the verdict can name it
      if (row.expected === 'invalid_language') expect(got.language_code).toBe(row.language);
    });
    expect(res.body.rows[0].language_code).toBe('en');
    expect(res.body.rows[5].outcome).toBe('invalid_address');
    // nothing was sent or stored
    await portal.mailSettled();
    expect(portal.smtp.messages.length).toBe(mailsBefore);
    const stored = await portal.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM invitations WHERE organization_id = $1`, [
      org.id,
    ]);
    expect(stored.rows[0]!.n).toBe(10);
  });

  it('sends the ok rows: each invitation e-mailed in its language, audited; the others reported with their reason', async () => {
    const res = await f.userMgrA.client.post(`/api/organizations/${org.id}/invitations/bulk`, { csv });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ organization_id: org.id, dry_run: false, total: 200, ok: 100, refused: 100 });
    expect(res.body.batch_id).toMatch(/^[0-9a-f-]{36}$/);
    const requestId = res.headers.get('x-request-id');
    for (const [i, row] of rows.entries()) {
      const got = res.body.rows[i];
      expect(got.outcome, `row ${i}`).toBe(row.expected === 'ok' ? 'sent' : row.expected);
      if (row.expected !== 'ok') {
        expect(got.invitation_id ?? null).toBeNull();
        continue;
      }
      // the e-mail, from the SMTP sink, in the row's language (empty: the inviter's, English)
      const mail = await portal.smtp.waitFor(row.email);
      expect(mail.links.some((l) => l.includes(`/invitation/${got.invitation_id}?code=`))).toBe(true);
      const expected = invitationEmail({
        language: row.language || 'en',
        link: '',
        organizationName: org.name,
        inviterName: 'usermgr Tester',
        isExternal: false,
      });
      expect(mail.subject, `row ${i}`).toBe(expected.subject);
    }
    // no e-mail to refused addresses; nobody got two
    await portal.mailSettled();
    for (const row of rows.filter((r) => ['domain_not_allowed', 'invalid_language'].includes(r.expected)))
      expect(portal.smtp.to(row.email)).toHaveLength(0);
    for (const row of rows.filter((r) => r.expected === 'ok')) expect(portal.smtp.to(row.email)).toHaveLength(1);
    expect(portal.smtp.to('pending0@partner.example')).toHaveLength(1); // the first invitation only

    const stored = await portal.services.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM invitations WHERE organization_id = $1 AND state = 'PENDING'`,
      [org.id],
    );
    expect(stored.rows[0]!.n).toBe(110);
    const created = await portal.services.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_log WHERE action = 'invitation.create' AND request_id = $1`,
      [requestId],
    );
    expect(created.rows[0]!.n).toBe(100);
    const summary = await portal.services.db.query<{ after: any; target_id: string }>(
      `SELECT after, target_id FROM audit_log WHERE action = 'invitation.bulk' AND request_id = $1`,
      [requestId],
    );
    expect(summary.rows).toHaveLength(1);
    expect(summary.rows[0]!.target_id).toBe(res.body.batch_id);
    expect(summary.rows[0]!.after).toMatchObject({ total: 200, sent: 100, refused: 100 });

    // the downloadable report
    const report = await f.userMgrA.client.get(`/api/invitations/batches/${res.body.batch_id}/report`);
    expect(report.status).toBe(200);
    expect(report.headers.get('content-type')).toContain('text/csv');
    expect(report.headers.get('content-disposition')).toMatch(/^attachment; filename="invitations-.*\.csv"$/);
    const records = parse<Record<string, string>>(report.text, { bom: true, columns: true });
    expect(records).toHaveLength(200);
    records.forEach((r, i) => {
      expect(r.line).toBe(String(i + 2));
      expect(r.outcome).toBe(rows[i]!.expected === 'ok' ? 'sent' : rows[i]!.expected);
    });
    // formula cells are neutralised in the report
    expect(records.every((r) => !/^[=+\-@]/.test(r.email_address ?? ''))).toBe(true);

    // sending the same file again: every earlier ok row is now already invited
    const again = await f.userMgrA.client.post(`/api/organizations/${org.id}/invitations/bulk/dry-run`, { csv });
    expect(again.body.ok).toBe(0);
    expect(again.body.rows.filter((r: { outcome: string }) => r.outcome === 'already_invited')).toHaveLength(110);
  });

  it('the report is for userManagers of the subtree only', async () => {
    const { rows: batches } = await portal.services.db.query<{ id: string }>(
      'SELECT id FROM invitation_batches WHERE organization_id = $1',
      [org.id],
    );
    const id = batches[0]!.id;
    expect((await f.mgrB.client.get(`/api/invitations/batches/${id}/report`)).status).toBe(403);
    expect((await f.orgMgrA.client.get(`/api/invitations/batches/${id}/report`)).status).toBe(403);
    expect((await f.mgrNorth.client.get(`/api/invitations/batches/${id}/report`)).status).toBe(403);
    expect((await portal.client().get(`/api/invitations/batches/${id}/report`)).status).toBe(401);
    expect((await f.admin.client.get(`/api/invitations/batches/${id}/report`)).status).toBe(200);
    expect((await f.userMgrA.client.get('/api/invitations/batches/00000000-0000-4000-8000-000000000000/report')).status).toBe(404);
  });
});

describe('bulk invitations: rights, file errors, authorization', () => {
  it('copies the rights of an existing member to every invitation', async () => {
    const loyaltyUser = rights((r) => (r.loyalty.user_access = true));
    const template = await createMember(portal, f.tree.a, 'template', loyaltyUser);
    const target = await createOrg(portal, f.tree.a, 'Rights Org');
    const csv = 'email;first_name;last_name;language\nr1@rights.example;A;B;nl\nr2@rights.example;C;D;\n';
    const res = await f.userMgrA.client.post(`/api/organizations/${target.id}/invitations/bulk`, {
      csv,
      rights_from_member_id: template.memberId,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.ok).toBe(2);
    const stored = await portal.services.db.query<{ email: string; rights: any; language_code: string }>(
      'SELECT email, rights, language_code FROM invitations WHERE organization_id = $1 ORDER BY email',
      [target.id],
    );
    expect(stored.rows.map((r) => r.email)).toEqual(['r1@rights.example', 'r2@rights.example']);
    expect(stored.rows.every((r) => r.rights.loyalty.user_access === true)).toBe(true);
    expect(stored.rows.map((r) => r.language_code)).toEqual(['nl', 'en']);
    // without it: no rights
    const plain = await f.userMgrA.client.post(`/api/organizations/${target.id}/invitations/bulk`, { csv: 'r3@rights.example,E,F,de' });
    expect(plain.status).toBe(200);
    expect(plain.body.rows[0]).toMatchObject({ line: 1, email_address: 'r3@rights.example', language_code: 'de', outcome: 'sent' });
    const r3 = await portal.services.db.query<{ rights: unknown }>(`SELECT rights FROM invitations WHERE email = 'r3@rights.example'`);
    expect(r3.rows[0]!.rights).toBeNull();
  });

  it('follows the rights rules: rights the organization cannot have are refused for the whole file (409), a member outside the subtree cannot be copied (403)', async () => {
    // a right the organization cannot have
    const orderManager = rights((r) => (r.loyalty.nedap_user_order_manager = true));
    const staff = await createMember(portal, f.tree.root, 'staff', orderManager);
    const csv = 'email\nesc@partner.example\n';
    const escalation = await f.admin.client.post(`/api/organizations/${org.id}/invitations/bulk/dry-run`, {
      csv,
      rights_from_member_id: staff.memberId,
    });
    expect(escalation.status).toBe(409);
    expect(escalation.body.i18NTranslationKey).toBe('invalid_rights');
    const outside = await f.userMgrA.client.post(`/api/organizations/${org.id}/invitations/bulk/dry-run`, {
      csv,
      rights_from_member_id: f.mgrB.memberId,
    });
    expect(outside.status).toBe(403);
    const sent = await f.admin.client.post(`/api/organizations/${org.id}/invitations/bulk`, { csv, rights_from_member_id: staff.memberId });
    expect(sent.status).toBe(409);
    await portal.mailSettled();
    expect(portal.smtp.to('esc@partner.example')).toHaveLength(0);
  });

  it('answers a clear 400 for an empty file, a file without an e-mail column, more than 1,000 rows, a missing csv', async () => {
    const post = (body: unknown) => f.userMgrA.client.post(`/api/organizations/${org.id}/invitations/bulk/dry-run`, body);
    const empty = await post({ csv: '\n\n' });
    expect([empty.status, empty.body.i18NTranslationKey]).toEqual([400, 'csv_no_rows']);
    const headerOnly = await post({ csv: 'email,first_name\n' });
    expect([headerOnly.status, headerOnly.body.i18NTranslationKey]).toEqual([400, 'csv_no_rows']);
    const noEmail = await post({ csv: 'first_name,last_name\nA,B\n' });
    expect([noEmail.status, noEmail.body.i18NTranslationKey]).toEqual([400, 'csv_invalid']);
    const unclosed = await post({ csv: 'email\n"open@partner.example\n' });
    expect([unclosed.status, unclosed.body.i18NTranslationKey]).toEqual([400, 'csv_invalid']);
    const big = await post({ csv: ['email', ...Array.from({ length: 1001 }, (_, i) => `big${i}@partner.example`)].join('\n') });
    expect([big.status, big.body.i18NTranslationKey]).toEqual([400, 'csv_too_many_rows']);
    const thousand = await post({ csv: ['email', ...Array.from({ length: 1000 }, (_, i) => `big${i}@partner.example`)].join('\n') });
    expect(thousand.status).toBe(200);
    expect(thousand.body.ok).toBe(1000);
    expect((await post({})).status).toBe(400);
  });

  it('is for userManagers of the organization’s subtree (403), signed in (401), of a known organization (404)', async () => {
    const csv = 'email\nwho@partner.example\n';
    expect((await f.orgMgrA.client.post(`/api/organizations/${org.id}/invitations/bulk/dry-run`, { csv })).status).toBe(403);
    expect((await f.mgrB.client.post(`/api/organizations/${org.id}/invitations/bulk`, { csv })).status).toBe(403);
    expect((await f.plainA.client.post(`/api/organizations/${org.id}/invitations/bulk`, { csv })).status).toBe(403);
    expect((await portal.client().post(`/api/organizations/${org.id}/invitations/bulk`, { csv })).status).toBe(401);
    expect((await f.userMgrA.client.post('/api/organizations/00000000-0000-4000-8000-000000000000/invitations/bulk', { csv })).status).toBe(
      404,
    );
    await portal.mailSettled();
    expect(portal.smtp.to('who@partner.example')).toHaveLength(0);
  });
});
