import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oidcClient from 'openid-client';
import { DCR_TOKEN } from '../oidc/support.js';
import { startPortalWith, type TestPortal } from '../support/portal.js';
import { buildFixture, type Fixture } from '../organizations/fixtures.js';
import { BearerClient, createAccount, discoverAs, grantError, keyOf, tokenOf } from './support.js';

/**
 * Making and deleting service accounts (docs/integrations.md, "Service accounts"): a person who
 * manages the organization's subtree, never giving more than they hold; the secret answered once
 * and kept only as a hash; every change audited; and the token endpoint of the client_credentials
 * grant, through openid-client.
 */
let portal: TestPortal;
let f: Fixture;

beforeAll(async () => ({ portal, built: f } = await startPortalWith(buildFixture, { DCR_INITIAL_ACCESS_TOKEN: DCR_TOKEN })));
afterAll(() => portal?.close());

const db = () => portal.services.db;
const path = (organizationId: string) => `/api/organizations/${organizationId}/service-accounts`;

describe('POST /api/organizations/{organizationId}/service-accounts', () => {
  it('answers the client id and secret once (no-store), keeps only the hash, lists the account without it, audits the creation', async () => {
    const res = await f.userMgrA.client.post(path(f.tree.a.id), { name: '  ERP sync  ', user_manager: true, organization_manager: false });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(Object.keys(res.body).sort()).toEqual(['client_id', 'client_secret', 'id']);
    const { id, client_id: clientId, client_secret: secret } = res.body as { id: string; client_id: string; client_secret: string };
    expect(clientId).toBe(`sa.${id}`);
    expect(secret.length).toBeGreaterThanOrEqual(43);

    // the secret is nowhere at rest, in no answer after this one
    const stored = await db().query<Record<string, unknown>>('SELECT * FROM service_accounts WHERE id = $1', [id]);
    expect(JSON.stringify(stored.rows)).not.toContain(secret);
    expect(stored.rows[0]).toMatchObject({
      name: 'ERP sync',
      user_manager: true,
      organization_manager: false,
      created_by: f.userMgrA.userId,
    });
    const everywhere = await db().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT payload::text AS t FROM oidc_payloads UNION ALL SELECT after::text FROM audit_log) x WHERE t LIKE '%' || $1 || '%'`,
      [secret],
    );
    expect(everywhere.rows[0]!.n).toBe(0);

    const listed = await f.userMgrA.client.get(path(f.tree.a.id));
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain(secret);
    expect(listed.body).toContainEqual({
      id,
      name: 'ERP sync',
      client_id: clientId,
      organization_id: f.tree.a.id,
      user_manager: true,
      organization_manager: false,
      created_at: expect.any(String),
      last_used_at: null,
    });

    const audit = await db().query<{ actor_user_id: string; target_id: string; after: unknown }>(
      "SELECT actor_user_id, target_id, after FROM audit_log WHERE action = 'service_account.create' AND target_id = $1",
      [id],
    );
    expect(audit.rows).toEqual([
      {
        actor_user_id: f.userMgrA.userId,
        target_id: id,
        after: { name: 'ERP sync', client_id: clientId, user_manager: true, organization_manager: false },
      },
    ]);
  });

  it('gives only rights the person holds: 403 cannot_grant_rights_not_held, nothing made, the refusal audited', async () => {
    const before = (await db().query('SELECT 1 FROM service_accounts')).rowCount;
    const userRights = await f.orgMgrA.client.post(path(f.tree.a.id), { name: 'Too much', user_manager: true });
    expect(userRights.status).toBe(403);
    expect(keyOf(userRights)).toBe('cannot_grant_rights_not_held');
    expect(userRights.body.messages).toEqual(['partner_portal.user_user_manager']);
    const orgRights = await f.userMgrA.client.post(path(f.tree.north.id), { name: 'Too much', organization_manager: true });
    expect(orgRights.status).toBe(403);
    expect(keyOf(orgRights)).toBe('cannot_grant_rights_not_held');
    expect((await db().query('SELECT 1 FROM service_accounts')).rowCount).toBe(before);
    const refusals = await db().query<{ actor_user_id: string }>(
      "SELECT actor_user_id FROM audit_log WHERE action = 'service_account.create.refused' ORDER BY id",
    );
    expect(refusals.rows.map((r) => r.actor_user_id)).toEqual([f.orgMgrA.userId, f.userMgrA.userId]);

    // what they hold they hand on; full partner-portal rights hold both
    await createAccount(f.orgMgrA.client, f.tree.north.id, { name: 'Tree keeper', organization_manager: true });
    await createAccount(f.fullA.client, f.tree.a.id, { name: 'Both', user_manager: true, organization_manager: true });
  });

  it('is for managers of the subtree: plain members 403, other trees and ancestors 403, anonymous 401, unknown 404, bad input 400', async () => {
    const valid = { name: 'X', user_manager: true };
    expect((await f.plainA.client.post(path(f.tree.a.id), valid)).status).toBe(403);
    expect((await f.plainA.client.get(path(f.tree.a.id))).status).toBe(403);
    expect((await f.mgrB.client.post(path(f.tree.a.id), valid)).status).toBe(403);
    expect((await f.mgrB.client.get(path(f.tree.north.id))).status).toBe(403);
    expect((await f.mgrNorth.client.post(path(f.tree.a.id), valid)).status).toBe(403);
    expect((await portal.client().post(path(f.tree.a.id), valid)).status).toBe(401);
    expect((await f.userMgrA.client.post(path('00000000-0000-4000-8000-000000000000'), valid)).status).toBe(404);
    expect((await f.userMgrA.client.post(path('not-a-uuid'), valid)).status).toBe(400);
    for (const body of [{}, { name: '   ' }, { name: 'x'.repeat(101) }, { name: 'X', user_manager: 'yes' }, { name: 7 }]) {
      const res = await f.userMgrA.client.post(path(f.tree.a.id), body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const malformed = await f.userMgrA.client.request('POST', path(f.tree.a.id), { raw: '{"name":', contentType: 'application/json' });
    expect(malformed.status).toBe(400);
    // a right left out is not given
    const users = await createAccount(f.userMgrA.client, f.tree.north.id, { name: 'Users only', user_manager: true });
    const row = await db().query('SELECT user_manager, organization_manager FROM service_accounts WHERE id = $1', [users.id]);
    expect(row.rows[0]).toEqual({ user_manager: true, organization_manager: false });
  });

  it('refuses an account without any right (it could make no call): 400 with the error on both rights, nothing made', async () => {
    const before = (await db().query('SELECT 1 FROM service_accounts')).rowCount;
    for (const body of [
      { name: 'Nothing', user_manager: false, organization_manager: false },
      { name: 'Nothing' },
      { name: 'Nothing', organization_manager: false },
    ]) {
      const res = await f.fullA.client.post(path(f.tree.a.id), body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(keyOf(res)).toBe('validation_failed');
      expect(res.body.errors).toEqual({
        user_manager: [{ message: expect.any(String), translation_key: 'service_account_needs_a_right' }],
        organization_manager: [{ message: expect.any(String), translation_key: 'service_account_needs_a_right' }],
      });
    }
    expect((await db().query('SELECT 1 FROM service_accounts')).rowCount).toBe(before);
  });
});

describe('DELETE /api/organizations/{organizationId}/service-accounts/{id}', () => {
  it('deletes for someone who holds every right of the account, else 403 (audited); 404 for an unknown one or another organization’s', async () => {
    const account = await createAccount(f.fullA.client, f.tree.a.id, { name: 'Doomed', user_manager: true });
    const refused = await f.orgMgrA.client.delete(`${path(f.tree.a.id)}/${account.id}`);
    expect(refused.status).toBe(403);
    expect(keyOf(refused)).toBe('cannot_delete_service_account_with_more_rights');
    expect((await f.userMgrA.client.delete(`${path(f.tree.north.id)}/${account.id}`)).status).toBe(404);
    expect((await f.mgrB.client.delete(`${path(f.tree.a.id)}/${account.id}`)).status).toBe(403);
    expect((await f.plainA.client.delete(`${path(f.tree.a.id)}/${account.id}`)).status).toBe(403);

    const deleted = await f.userMgrA.client.delete(`${path(f.tree.a.id)}/${account.id}`);
    expect(deleted.status).toBe(204);
    expect((await f.userMgrA.client.delete(`${path(f.tree.a.id)}/${account.id}`)).status).toBe(404);
    expect((await f.userMgrA.client.get(path(f.tree.a.id))).body.map((a: { id: string }) => a.id)).not.toContain(account.id);
    const audit = await db().query<{ action: string; actor_user_id: string }>(
      "SELECT action, actor_user_id FROM audit_log WHERE target_type = 'service_account' AND target_id = $1 ORDER BY id",
      [account.id],
    );
    expect(audit.rows).toEqual([
      { action: 'service_account.create', actor_user_id: f.fullA.userId },
      { action: 'service_account.delete.refused', actor_user_id: f.orgMgrA.userId },
      { action: 'service_account.delete', actor_user_id: f.userMgrA.userId },
    ]);
  });
});

describe('POST /connect/token with grant_type=client_credentials', () => {
  it('gives a bearer token to the account, with HTTP Basic or the secret in the body', async () => {
    const account = await createAccount(f.userMgrA.client, f.tree.a.id, { name: 'Token taker', user_manager: true });
    for (const how of ['basic', 'post'] as const) {
      const token = await tokenOf(portal.url, account, how);
      const res = await new BearerClient(portal.url, token).get(`/api/organizations/${f.tree.a.id}`);
      expect(res.status, how).toBe(200);
    }
  });

  it('refuses a wrong secret, another account’s secret and a deleted account (invalid_client); other scopes than its own (invalid_scope)', async () => {
    const account = await createAccount(f.userMgrA.client, f.tree.a.id, { name: 'Guarded', user_manager: true });
    const other = await createAccount(f.userMgrA.client, f.tree.a.id, { name: 'Other', user_manager: true });
    const refusedWith = async (secret: string) => {
      const config = await discoverAs(portal.url, { client_id: account.client_id, client_secret: secret });
      return oidcClient.clientCredentialsGrant(config, { scope: 'partner_portal_api' }).then(
        () => 'granted',
        (err: unknown) => grantError(err),
      );
    };
    expect(await refusedWith('wrong')).toBe('invalid_client');
    expect(await refusedWith(other.client_secret)).toBe('invalid_client');
    expect(await refusedWith(`${account.client_secret}x`)).toBe('invalid_client');

    const config = await discoverAs(portal.url, account);
    const openid = await oidcClient.clientCredentialsGrant(config, { scope: 'openid email' }).then(
      () => 'granted',
      (err: unknown) => grantError(err),
    );
    expect(openid).toBe('invalid_scope');

    expect((await f.userMgrA.client.delete(`${path(f.tree.a.id)}/${account.id}`)).status).toBe(204);
    expect(await refusedWith(account.client_secret)).toBe('invalid_client');
  });

  it('takes partner_portal_api when no scope is asked for, and refuses any other scope (invalid_scope), with Basic or the body', async () => {
    const account = await createAccount(f.userMgrA.client, f.tree.a.id, { name: 'Scopes', user_manager: true });
    const grant = async (how: 'basic' | 'post', scope?: string) => {
      const form = new URLSearchParams({ grant_type: 'client_credentials', ...(scope === undefined ? {} : { scope }) });
      const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
      if (how === 'basic')
        headers.authorization = `Basic ${Buffer.from(`${account.client_id}:${account.client_secret}`).toString('base64')}`;
      else {
        form.set('client_id', account.client_id);
        form.set('client_secret', account.client_secret);
      }
      const res = await fetch(`${portal.url}/connect/token`, { method: 'POST', headers, body: form.toString() });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    for (const how of ['basic', 'post'] as const) {
      const implicit = await grant(how);
      expect(implicit.status, how).toBe(200);
      expect(implicit.body).toMatchObject({ token_type: 'Bearer', scope: 'partner_portal_api' });
      const res = await new BearerClient(portal.url, implicit.body.access_token as string).get(`/api/organizations/${f.tree.a.id}`);
      expect(res.status, how).toBe(200);
      for (const scope of ['unknown_scope', 'partner_portal_api unknown_scope', 'openid', 'offline_access partner_portal_api']) {
        const refused = await grant(how, scope);
        expect(refused.status, `${how} ${scope}`).toBe(400);
        expect(refused.body.error, `${how} ${scope}`).toBe('invalid_scope');
      }
      expect((await grant(how, 'partner_portal_api')).body.scope).toBe('partner_portal_api');
    }
    const issued = await db().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM oidc_payloads WHERE model = 'ClientCredentials' AND payload->>'clientId' = $1`,
      [account.client_id],
    );
    expect(issued.rows[0]!.n).toBe(4);
  });

  it('is a service account’s grant only: Dynamic Client Registration refuses client_credentials', async () => {
    const res = await fetch(`${portal.url}/connect/dcr`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${DCR_TOKEN}` },
      body: JSON.stringify({ client_name: 'Machine', grant_types: ['client_credentials'], response_types: [], redirect_uris: [] }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe('invalid_client_metadata');
  });
});
