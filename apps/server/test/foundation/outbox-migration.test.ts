import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openDatabase, type Database } from '../../src/db/client.js';
import { migrate, readMigrations } from '../../src/db/migrate.js';
import { createLogger } from '../../src/main.js';
import { MAIL_BODY_PURPOSE } from '../../src/modules/mail/mailer.js';
import { startMailWorker, type MailWorker } from '../../src/modules/mail/outbox-worker.js';
import { listDeliveries } from '../../src/modules/webhooks/queries.js';
import { SECRET_PURPOSE } from '../../src/modules/webhooks/sender.js';
import { startWebhookWorker, type WebhookWorker } from '../../src/modules/webhooks/worker.js';
import { seal } from '../../src/sealed.js';
import { adminQuery, testDatabaseUrl, withDatabase } from '../support/database.js';
import { SmtpSink } from '../support/smtp.js';
import { until } from '../support/wait.js';
import { startReceiver, type Receiver } from '../webhooks/support.js';

/**
 * Migration 0082 moves the e-mails (mail_outbox) and the webhook deliveries (webhook_deliveries)
 * into the one outbox table. A database migrated to 0081 with rows in the old tables, then
 * migrated: the pending e-mail and delivery are sent by the workers, once; the finished ones still
 * show (the deliveries list's columns, the e-mail's kept body, an attempt of a delivery).
 * On PostgreSQL when DATABASE_URL is set (an empty database of its own), else on the embedded one.
 */

const KEY_ENCRYPTION = 'outbox-migration-test-key-encryption-secret';
const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('base64')}`;

describe('migration 0082: the old outbox tables moved into outbox', () => {
  let db: Database;
  let dropDatabase: () => Promise<void> = async () => undefined;
  let smtp: SmtpSink;
  let receiver: Receiver;
  let mailWorker: MailWorker | undefined;
  let webhookWorker: WebhookWorker | undefined;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    smtp = await new SmtpSink().start();
    receiver = await startReceiver();
    receiver.hook('/migrated', WEBHOOK_SECRET);
    const base = testDatabaseUrl();
    if (base) {
      const name = `pp_outbox_migration_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
      await adminQuery(base, `CREATE DATABASE ${name}`);
      dropDatabase = () => adminQuery(base, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
      db = await openDatabase({ databaseUrl: withDatabase(base, name), poolSize: 4 });
    } else {
      db = await openDatabase({ inMemory: true });
    }
    await migrate(
      db,
      readMigrations().filter((m) => m.version <= 81),
    );
    const one = async (sql: string, params: unknown[]) => (await db.query<{ id: string }>(sql, params)).rows[0]!.id;

    // the e-mails: one pending (its body sealed), one sent, one kept (development)
    const sealed = await seal(KEY_ENCRYPTION, MAIL_BODY_PURPOSE, JSON.stringify({ text: 'Hello after the upgrade', html: '<p>Hello</p>' }));
    ids.pendingMail = await one(
      `INSERT INTO mail_outbox (recipient, subject, kind, sealed_body, state) VALUES ('waiting@example.com', 'Waiting', 'invitation', $1, 'pending') RETURNING id`,
      [sealed],
    );
    ids.sentMail = await one(
      `INSERT INTO mail_outbox (recipient, subject, kind, text_body, html_body, state, attempts, sent_at)
       VALUES ('sent@example.com', 'Sent', 'password-reset', '(sent through SMTP; body not kept)', '(sent through SMTP; body not kept)', 'sent', 1, now()) RETURNING id`,
      [],
    );
    ids.keptMail = await one(
      `INSERT INTO mail_outbox (recipient, subject, kind, text_body, html_body, state) VALUES ('kept@example.com', 'Kept', 'invitation', 'the link', '<a>the link</a>', 'kept') RETURNING id`,
      [],
    );

    // a webhook with a pending delivery and a succeeded one (with its attempt)
    const organization = await one(
      `INSERT INTO organizations (parent_id, name, path, depth, can_create_sub_organization, sub_organization_can_have_children)
       VALUES (NULL, 'Migrated', 'migrated', 0, true, true) RETURNING id`,
      [],
    );
    ids.organization = organization;
    ids.webhook = await one(`INSERT INTO webhooks (organization_id, url, events, secret_sealed) VALUES ($1, $2, '{*}', $3) RETURNING id`, [
      organization,
      `${receiver.url}/migrated`,
      await seal(KEY_ENCRYPTION, SECRET_PURPOSE, WEBHOOK_SECRET),
    ]);
    const body = (name: string) =>
      JSON.stringify({ type: 'organization.updated', timestamp: new Date().toISOString(), data: { organization_id: organization, name } });
    ids.pendingDelivery = await one(
      `INSERT INTO webhook_deliveries (webhook_id, event_type, organization_id, payload) VALUES ($1, 'organization.updated', $2, $3) RETURNING id`,
      [ids.webhook, organization, body('pending')],
    );
    ids.doneDelivery = await one(
      `INSERT INTO webhook_deliveries (webhook_id, event_type, organization_id, payload, state, attempts, last_status, completed_at)
       VALUES ($1, 'organization.updated', $2, $3, 'succeeded', 1, 200, now()) RETURNING id`,
      [ids.webhook, organization, body('done')],
    );
    await db.query(`INSERT INTO webhook_delivery_attempts (delivery_id, attempted_at, status, duration_ms) VALUES ($1, now(), 200, 12)`, [
      ids.doneDelivery,
    ]);

    expect(await migrate(db)).toContain('0082_one_outbox.sql');
  }, 120_000);

  afterAll(async () => {
    await mailWorker?.stop();
    await webhookWorker?.stop();
    await db?.close();
    await dropDatabase();
    await smtp?.stop();
    await receiver?.close();
  });

  it('drops the old tables and keeps every row, the finished ones as they were', async () => {
    const tables = await db.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_name IN ('mail_outbox', 'webhook_deliveries', 'outbox')`,
    );
    expect(tables.rows.map((r) => r.name)).toEqual(['outbox']);
    const { rows } = await db.query<{ id: string; kind: string; state: string; recipient: string | null; webhook_id: string | null }>(
      `SELECT id, kind, state, recipient, webhook_id FROM outbox ORDER BY kind, recipient, state`,
    );
    expect(rows).toEqual([
      { id: ids.keptMail, kind: 'email', state: 'kept', recipient: 'kept@example.com', webhook_id: null },
      { id: ids.sentMail, kind: 'email', state: 'delivered', recipient: 'sent@example.com', webhook_id: null },
      { id: ids.pendingMail, kind: 'email', state: 'pending', recipient: 'waiting@example.com', webhook_id: null },
      { id: ids.doneDelivery, kind: 'webhook', state: 'delivered', recipient: null, webhook_id: ids.webhook },
      { id: ids.pendingDelivery, kind: 'webhook', state: 'pending', recipient: null, webhook_id: ids.webhook },
    ]);
    const kept = await db.query<{ payload: Record<string, string> }>('SELECT payload FROM outbox WHERE id = $1', [ids.keptMail]);
    expect(kept.rows[0]!.payload).toEqual({
      mail_kind: 'invitation',
      subject: 'Kept',
      text_body: 'the link',
      html_body: '<a>the link</a>',
    });
    // the attempt of a delivery still belongs to it, and goes with it
    const attempts = await db.query('SELECT 1 FROM webhook_delivery_attempts WHERE delivery_id = $1', [ids.doneDelivery]);
    expect(attempts.rowCount).toBe(1);
  });

  it('sends the pending e-mail and the pending delivery once, after the upgrade', async () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      SMTP_URL: smtp.url,
      PUBLIC_URL: 'http://127.0.0.1:1',
    });
    const log = createLogger(config);
    mailWorker = await startMailWorker({ db, config, log, keyEncryption: KEY_ENCRYPTION });
    webhookWorker = await startWebhookWorker({ db, config, log, keyEncryption: KEY_ENCRYPTION });

    const mail = await smtp.waitFor('waiting@example.com');
    expect(mail.text).toContain('Hello after the upgrade');
    const [delivered] = await receiver.waitFor('/migrated', 1);
    expect(delivered!.headers['webhook-id']).toBe(ids.pendingDelivery);
    expect(delivered!.payload).toMatchObject({ type: 'organization.updated', data: { name: 'pending' } });

    await until(
      'both written as delivered',
      async () =>
        (
          await db.query(`SELECT 1 FROM outbox WHERE id = ANY($1::uuid[]) AND state = 'delivered'`, [
            [ids.pendingMail, ids.pendingDelivery],
          ])
        ).rowCount === 2,
      15_000,
    );
    expect(smtp.messages.map((m) => m.to)).toEqual([['waiting@example.com']]);
    expect(receiver.received).toHaveLength(1);
  });

  it("lists the webhook's deliveries as before (the API's states)", async () => {
    const listed = await listDeliveries(db, ids.webhook!, { state: 'succeeded', limit: 10, offset: 0 });
    expect(listed.map((d) => ({ id: d.id, state: d.state, event_type: d.event_type, organization_id: d.organization_id }))).toEqual([
      { id: ids.doneDelivery, state: 'succeeded', event_type: 'organization.updated', organization_id: ids.organization },
      { id: ids.pendingDelivery, state: 'succeeded', event_type: 'organization.updated', organization_id: ids.organization },
    ]);
    expect(JSON.parse(listed[0]!.payload)).toMatchObject({ data: { name: 'done' } });
  });
});
