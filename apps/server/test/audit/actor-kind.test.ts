import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortalWith, type TestPortal } from '../support/portal.js';
import { buildFixture, type Fixture } from '../organizations/fixtures.js';
import { Directory, entraUser, makeToken } from '../scim/support.js';
import { BearerClient, createAccount, tokenOf } from '../service-accounts/support.js';

/**
 * Every audit entry names its actor by kind and id in typed columns (actor_kind, actor_id:
 * migration 0077, http/actor.ts): a person by their user id, a service account by its id, a
 * directory by its SCIM token's id, a job by its kind alone; the columns the trail shows stay
 * as they were.
 */
let portal: TestPortal;
let f: Fixture;
beforeAll(async () => ({ portal, built: f } = await startPortalWith(buildFixture)));
afterAll(() => portal?.close());

const unique = (label: string) => `${label}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@dealer.example`;

interface ActorColumns {
  actor_kind: string;
  actor_id: string | null;
  actor_user_id: string | null;
  actor_service_account_id: string | null;
  actor_email: string | null;
}

async function actorOf(action: string, targetId: string): Promise<ActorColumns> {
  const { rows } = await portal.services.db.query<ActorColumns>(
    `SELECT actor_kind, actor_id::text, actor_user_id::text, actor_service_account_id::text, actor_email
     FROM audit_log WHERE action = $1 AND target_id = $2 ORDER BY id DESC LIMIT 1`,
    [action, targetId],
  );
  expect(rows[0], `${action} of ${targetId}`).toBeDefined();
  return rows[0]!;
}

describe('the audit log’s actor_kind and actor_id', () => {
  it('name a person, a service account and a directory by kind and id, beside the columns the trail shows', async () => {
    const invited = await f.userMgrA.client.post(`/api/organizations/${f.tree.a.id}/invitations`, { email_address: unique('person') });
    expect(invited.status, invited.text).toBe(201);
    expect(await actorOf('invitation.create', invited.body.invitation.invitation_id)).toEqual({
      actor_kind: 'person',
      actor_id: f.userMgrA.userId,
      actor_user_id: f.userMgrA.userId,
      actor_service_account_id: null,
      actor_email: f.userMgrA.email,
    });

    const account = await createAccount(f.userMgrA.client, f.tree.a.id, { name: 'Actor kinds', user_manager: true });
    const bearer = new BearerClient(portal.url, await tokenOf(portal.url, account));
    const byAccount = await bearer.post(`/api/organizations/${f.tree.a.id}/invitations`, { email_address: unique('account') });
    expect(byAccount.status, byAccount.text).toBe(201);
    expect(await actorOf('invitation.create', byAccount.body.invitation.invitation_id)).toEqual({
      actor_kind: 'service_account',
      actor_id: account.id,
      actor_user_id: null,
      actor_service_account_id: account.id,
      actor_email: null,
    });

    const token = await makeToken(f.userMgrA.client, f.tree.a.id, 'Kinds');
    const provisioned = await new Directory(portal, token.token).post('/Users', entraUser(unique('directory')));
    expect(provisioned.status, provisioned.text).toBe(201);
    expect(await actorOf('member.provision', provisioned.body.id)).toEqual({
      actor_kind: 'directory',
      actor_id: token.id,
      actor_user_id: null,
      actor_service_account_id: null,
      actor_email: 'SCIM: Kinds',
    });
  });

  it('is filled for every entry', async () => {
    const { rows } = await portal.services.db.query<{ missing: string }>(
      `SELECT count(*)::text AS missing FROM audit_log
       WHERE actor_kind IS NULL OR (actor_kind <> 'job' AND actor_kind <> 'person' AND actor_id IS NULL)`,
    );
    expect(rows[0]!.missing).toBe('0');
    const kinds = await portal.services.db.query<{ actor_kind: string }>('SELECT DISTINCT actor_kind FROM audit_log');
    expect(kinds.rows.map((r) => r.actor_kind).sort()).toEqual(expect.arrayContaining(['directory', 'job', 'person', 'service_account']));
  });
});
