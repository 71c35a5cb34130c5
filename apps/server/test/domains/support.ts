import { expect } from 'vitest';
import { buildFixture, type Fixture } from '../organizations/fixtures.js';
import { startDnsServer, type DnsServer } from '../support/dns-server.js';
import type { HttpClient, HttpResponse } from '../support/http.js';
import { startPortalWith, type TestPortal } from '../support/portal.js';

/**
 * The portal of a verified-domains test file: the organization fixture (organizations/fixtures.ts)
 * on a portal whose DNS questions go to a DNS server of the test's own (support/dns-server.ts),
 * with a short DNS timeout so that unanswered questions fail fast.
 */
export interface DomainWorld {
  portal: TestPortal;
  dns: DnsServer;
  f: Fixture;
  close(): Promise<void>;
}

export async function startDomainWorld(): Promise<DomainWorld> {
  const dns = await startDnsServer();
  const { portal, built: f } = await startPortalWith(buildFixture, { DNS_SERVERS: dns.address, DNS_TIMEOUT_MS: '200' });
  return {
    portal,
    dns,
    f,
    async close() {
      await portal.close();
      await dns.stop();
    },
  };
}

export const domainsPath = (organizationId: string) => `/api/organizations/${organizationId}/domains`;
export const domainPath = (organizationId: string, domain: string) => `${domainsPath(organizationId)}/${encodeURIComponent(domain)}`;

/** The translation key of a problem answer. */
export const keyOf = (res: HttpResponse): string | undefined => (res.body as { i18NTranslationKey?: string }).i18NTranslationKey;

export function claim(client: HttpClient, organizationId: string, domain: string): Promise<HttpResponse> {
  return client.post(domainsPath(organizationId), { domain });
}

export function verify(client: HttpClient, organizationId: string, domain: string): Promise<HttpResponse> {
  return client.post(`${domainPath(organizationId, domain)}/verify`);
}

/** Claim a domain, publish its record on the test's DNS server and verify it: the claim's record. */
export async function claimAndVerify(
  world: DomainWorld,
  client: HttpClient,
  organizationId: string,
  domain: string,
): Promise<{ name: string; value: string }> {
  const claimed = await claim(client, organizationId, domain);
  expect(claimed.status, claimed.text).toBe(201);
  const { name, value } = claimed.body.verification as { name: string; value: string };
  world.dns.set(name, value);
  const verified = await verify(client, organizationId, domain);
  expect(verified.status, verified.text).toBe(200);
  return { name, value };
}

/** The stored claim of a domain by an organization, as the database has it. */
export async function storedClaim(portal: TestPortal, organizationId: string, domain: string) {
  const { rows } = await portal.services.db.query<{ verified_at: Date | null; checked_at: Date | null; verification_value: string }>(
    'SELECT verified_at, checked_at, verification_value FROM organization_domains WHERE organization_id = $1 AND domain = $2',
    [organizationId, domain],
  );
  return rows[0];
}

/** The audit entries about a domain, oldest first. */
export async function auditOf(portal: TestPortal, domain: string) {
  const { rows } = await portal.services.db.query<{
    action: string;
    actor_user_id: string | null;
    organization_id: string;
    before: unknown;
    after: unknown;
  }>(
    `SELECT action, actor_user_id, organization_id, before, after FROM audit_log WHERE target_type = 'domain' AND target_id = $1 ORDER BY id`,
    [domain],
  );
  return rows;
}
