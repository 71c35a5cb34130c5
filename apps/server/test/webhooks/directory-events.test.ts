import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookPayload } from '@partner-portal/contracts';
import { startPortalWith, type TestPortal } from '../support/portal.js';
import { buildFixture, createOrg, type Fixture, type Org } from '../organizations/fixtures.js';
import { Directory, entraUser, makeToken, patchOp, USER_SCHEMA } from '../scim/support.js';
import type { WebhookWorker } from '../../src/modules/webhooks/worker.js';
import { deliveriesSettled, startReceiver, startWorker, type Receiver } from './support.js';

/**
 * A directory's changes (SCIM, docs/integrations.md) are events like a person's: a receiver that
 * verifies every delivery with the `standardwebhooks` package hears the member a directory creates
 * and the invitation it is sent, the names and language the directory changes, the deactivation
 * and reactivation, the invitation being accepted, and the removal — each with
 * `data.organization_id`.
 */
let portal: TestPortal;
let f: Fixture;
let receiver: Receiver;
let worker: WebhookWorker;

beforeAll(async () => {
  ({ portal, built: f } = await startPortalWith(buildFixture, { WEBHOOK_RETRY_BASE_SECONDS: '0.05', WEBHOOK_TIMEOUT_SECONDS: '2' }));
  receiver = await startReceiver();
  worker = await startWorker(portal);
});
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  await portal?.close();
});

async function subscribe(org: Org, path: string): Promise<void> {
  const res = await f.orgMgrA.client.post(`/api/organizations/${org.id}/webhooks`, { url: `${receiver.url}${path}`, events: ['*'] });
  expect(res.status, res.text).toBe(201);
  expect(res.body.secret).toMatch(/^whsec_/);
  receiver.hook(path, res.body.secret);
}

/** The payloads that arrived at a path, each message once (at least once may repeat a webhook-id), in the order sent. */
async function payloads(path: string, count: number): Promise<WebhookPayload[]> {
  await receiver.waitFor(path, count);
  await deliveriesSettled(portal);
  const got = receiver.verified(path);
  return [...new Map(got.map((r) => [r.headers['webhook-id'], r.payload!])).values()];
}

describe('webhooks hear what a directory does', () => {
  it('member.created and invitation.created, member.updated, member.deactivated, member.reactivated, invitation.accepted, member.removed', async () => {
    const org = await createOrg(portal, f.tree.a, 'Directory Events');
    await subscribe(org, '/directory');
    const entra = new Directory(portal, (await makeToken(f.userMgrA.client, org.id, 'Entra ID')).token);
    const email = `dir.events.${Date.now()}@dealer-a.example`;

    const created = await entra.post('/Users', entraUser(email));
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    const renamed = await entra.patch(
      `/Users/${id}`,
      patchOp({ op: 'Replace', path: 'name.givenName', value: 'Julie' }, { op: 'Replace', path: 'preferredLanguage', value: 'fr' }),
    );
    expect(renamed.status, renamed.text).toBe(200);
    expect((await entra.patch(`/Users/${id}`, patchOp({ op: 'Replace', path: 'active', value: 'False' }))).status).toBe(200);
    expect((await entra.patch(`/Users/${id}`, patchOp({ op: 'Replace', path: 'active', value: 'True' }))).status).toBe(200);
    const replaced = await entra.put(`/Users/${id}`, {
      schemas: [USER_SCHEMA],
      userName: email,
      name: { givenName: 'Julie', familyName: 'Smit' },
      emails: [{ value: email, type: 'work', primary: true }],
      preferredLanguage: 'fr',
      active: true,
    });
    expect(replaced.status, replaced.text).toBe(200);

    // the invitation sent at the reactivation is accepted: the member chooses a password
    const pending = await portal.services.db.query<{ id: string }>(
      `SELECT id FROM invitations WHERE member_id = $1 AND state = 'PENDING'`,
      [id],
    );
    const invitationId = pending.rows[0]!.id;
    const mail = await portal.smtp.waitFor(email, (m) => m.links.some((l) => l.includes(`/invitation/${invitationId}`)));
    const link = new URL(mail.links.find((l) => l.includes(`/invitation/${invitationId}`))!);
    const accepted = await portal.client().put(`/api/invitations/${invitationId}/accept`, {
      invitation_code: link.searchParams.get('code'),
      first_name: 'Julie',
      last_name: 'Smit',
      language_code: 'fr',
      password: 'Julie-Passw0rd!x',
      password_confirmation: 'Julie-Passw0rd!x',
      accept_agreement: true,
      opt_in_for_newsletter: false,
    });
    expect(accepted.status, accepted.text).toBe(204);
    expect((await entra.delete(`/Users/${id}`)).status).toBe(204);

    const all = await payloads('/directory', 10);
    expect(all.map((p) => p.type)).toEqual([
      'member.created',
      'invitation.created',
      'member.updated',
      'member.deactivated',
      'invitation.revoked',
      'member.reactivated',
      'invitation.created',
      'member.updated',
      'invitation.accepted',
      'member.removed',
    ]);
    for (const p of all) expect(p.data.organization_id, p.type).toBe(org.id);
    const data = (type: string) => all.filter((p) => p.type === type).map((p) => p.data as Record<string, unknown>);
    const userId = data('member.created')[0]!.user_id;
    expect(data('member.created')[0]).toMatchObject({ member_id: id, email_address: email, source: 'scim' });
    expect(data('invitation.created')[0]).toMatchObject({
      email_address: email,
      language_code: 'de',
      is_external_identity_provider: false,
    });
    expect(data('invitation.revoked')[0]!.invitation_id).toBe(data('invitation.created')[0]!.invitation_id);
    expect(data('invitation.created')[1]).toMatchObject({ invitation_id: invitationId, email_address: email, language_code: 'fr' });
    expect(data('member.updated').map((d) => d.changed)).toEqual([['first_name', 'language_code'], ['last_name']]);
    expect(data('member.updated')[1]).toMatchObject({
      member_id: id,
      user_id: userId,
      first_name: 'Julie',
      last_name: 'Smit',
      language_code: 'fr',
    });
    expect(data('invitation.accepted')[0]).toEqual({
      organization_id: org.id,
      invitation_id: invitationId,
      email_address: email,
      member_id: id,
      user_id: userId,
    });
    expect(data('member.removed')[0]).toEqual({ organization_id: org.id, member_id: id, user_id: userId, email_address: email });
  });
});
