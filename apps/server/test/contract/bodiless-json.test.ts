import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askAndStore, uniqueDomain, verifyDomain } from '../access-requests/support.js';
import { claim, claimAndVerify, domainPath, startDomainWorld, type DomainWorld } from '../domains/support.js';
import type { HttpClient, HttpResponse } from '../support/http.js';

/**
 * Calls without a body, made by a client that sends `Content-Type: application/json` on every
 * request (as many HTTP helpers do) and no body: the portal takes the empty body as no body, so
 * that such a call succeeds exactly as it does without the header (verified domains and access
 * requests, the operating contract's calls that take no body or an optional one). A body that is
 * there and is no JSON is still 400 invalid_json.
 */
let world: DomainWorld;

beforeAll(async () => {
  world = await startDomainWorld();
});
afterAll(() => world?.close());

/** `method path` with `Content-Type: application/json` and an empty body (or `body` as it is), with the client's session. */
async function withJsonType(
  client: HttpClient,
  method: string,
  path: string,
  body = '',
  contentType = 'application/json',
): Promise<HttpResponse> {
  return client.request(method, path, { raw: body, contentType });
}

describe('a call without a body, sent with Content-Type: application/json', () => {
  it('verifies and removes a domain', async () => {
    const { f, dns } = world;
    const claimed = await claim(f.orgMgrA.client, f.tree.a.id, 'bodiless.example');
    dns.set(claimed.body.verification.name, claimed.body.verification.value);
    const verified = await withJsonType(f.orgMgrA.client, 'POST', `${domainPath(f.tree.a.id, 'bodiless.example')}/verify`);
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body).toEqual({ domain: 'bodiless.example', verified: true });
    const removed = await withJsonType(f.orgMgrA.client, 'DELETE', domainPath(f.tree.a.id, 'bodiless.example'));
    expect(removed.status, removed.text).toBe(204);
  });

  it('approves and declines an access request', async () => {
    const { f, portal } = world;
    const domain = uniqueDomain('bodiless');
    await verifyDomain(portal, f.tree.north, domain);
    const first = await askAndStore(portal, { email_address: `first@${domain}` });
    const approved = await withJsonType(f.mgrNorth.client, 'PUT', `/api/access-requests/${first.id}/approve`);
    expect(approved.status, approved.text).toBe(201);
    expect(approved.body).toEqual({ invitation_id: expect.any(String) });
    const second = await askAndStore(portal, { email_address: `second@${domain}` });
    const declined = await withJsonType(f.mgrNorth.client, 'PUT', `/api/access-requests/${second.id}/decline`);
    expect(declined.status, declined.text).toBe(204);
  });

  it('still refuses a body that is no JSON (400 invalid_json) and a missing required body (400 with field errors)', async () => {
    const { f } = world;
    await claimAndVerify(world, f.orgMgrA.client, f.tree.a.id, 'still-json.example');
    const broken = await withJsonType(f.orgMgrA.client, 'POST', `/api/organizations/${f.tree.a.id}/domains`, '{"domain": ');
    expect(broken.status).toBe(400);
    expect(broken.body.i18NTranslationKey).toBe('invalid_json');
    const missing = await withJsonType(f.orgMgrA.client, 'POST', `/api/organizations/${f.tree.a.id}/domains`);
    expect(missing.status).toBe(400);
    expect(missing.body.i18NTranslationKey).toBe('validation_failed');
    const whitespace = await withJsonType(f.mgrNorth.client, 'PUT', `/api/access-requests/${randomUUID()}/decline`, '  \n');
    expect(whitespace.status).toBe(404);
    const charset = await withJsonType(
      f.mgrNorth.client,
      'PUT',
      `/api/access-requests/${randomUUID()}/decline`,
      '',
      'application/json; charset=utf-8',
    );
    expect(charset.status).toBe(404);
    const poisoned = await withJsonType(
      f.orgMgrA.client,
      'POST',
      `/api/organizations/${f.tree.a.id}/domains`,
      '{"__proto__": {"x": 1}, "domain": "p.example"}',
    );
    expect(poisoned.status).toBe(400);
  });
});
