import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { HttpClient, HttpResponse } from '../support/http.js';
import type { TestPortal } from '../support/portal.js';
import type { Org } from '../organizations/fixtures.js';

/**
 * What the access-request tests share: asking over HTTP from a client address of the test's choice
 * (the portal runs with TRUST_PROXY, so X-Forwarded-For is the client), a domain verified in SQL
 * (the domains module has its own tests), and waiting for the work the portal does after its answer.
 */

/** A client address of its own, so that a test's requests count against no other test's limit. */
export function clientAddress(): string {
  const b = randomBytes(3);
  return `10.${b[0]}.${b[1]}.${b[2]}`;
}

/** A domain nobody else uses. */
export function uniqueDomain(label: string): string {
  return `${label}-${randomBytes(3).toString('hex')}.example`;
}

export interface AskBody {
  email_address: string;
  first_name?: string;
  last_name?: string;
  message?: string | null;
  language_code?: string;
}

/** POST /api/access-requests, anonymous, from `address`. */
export function ask(portal: TestPortal, body: AskBody, address = clientAddress(), client?: HttpClient): Promise<HttpResponse> {
  return (client ?? portal.client()).post(
    '/api/access-requests',
    { first_name: 'Anna', last_name: 'Berg', ...body },
    { headers: { 'x-forwarded-for': address } },
  );
}

/** Mark `domain` as verified by the organization (as the domains module does once its TXT record is found). */
export async function verifyDomain(portal: TestPortal, org: Org, domain: string): Promise<void> {
  await portal.services.db.query(
    `INSERT INTO organization_domains (organization_id, domain, verification_value, verified_at, checked_at)
     VALUES ($1, $2, 'partner-portal-verification=test', now(), now())`,
    [org.id, domain],
  );
}

/** Wait until `probe` gives a value (the portal works on a request after answering it). */
export async function eventually<T>(probe: () => Promise<T | null | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null && value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`nothing came within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Give the portal time for work it does after answering, when a test checks that nothing happens. */
export function settle(ms = 750): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export interface StoredRequest {
  id: string;
  email: string;
  state: string;
  organization_id: string | null;
  language_code: string;
  message: string | null;
  invitation_id: string | null;
  decided_by: string | null;
  decided_at: Date | null;
}

/** The requests stored for an address, oldest first. */
export async function storedRequests(portal: TestPortal, email: string): Promise<StoredRequest[]> {
  const { rows } = await portal.services.db.query<StoredRequest>(
    `SELECT id, email, state, organization_id, language_code, message, invitation_id, decided_by, decided_at
     FROM access_requests WHERE lower(email) = lower($1) ORDER BY created_at, id`,
    [email],
  );
  return rows;
}

/** Ask, then wait until the request is stored; its row. */
export async function askAndStore(portal: TestPortal, body: AskBody): Promise<StoredRequest> {
  const res = await ask(portal, body);
  expect(res.status, res.text).toBe(202);
  return eventually(async () => (await storedRequests(portal, body.email_address)).find((r) => r.state === 'PENDING'));
}

/** The audit entries of an action on a target. */
export async function auditEntries(portal: TestPortal, action: string, targetId: string) {
  const { rows } = await portal.services.db.query<{
    actor_user_id: string | null;
    actor_email: string | null;
    organization_id: string | null;
    before: any;
    after: any;
    request_id: string | null;
  }>('SELECT actor_user_id, actor_email, organization_id, before, after, request_id FROM audit_log WHERE action = $1 AND target_id = $2', [
    action,
    targetId,
  ]);
  return rows;
}
