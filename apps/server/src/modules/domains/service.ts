import { randomBytes } from 'node:crypto';
import { toAsciiDomain, type DomainClaimResponse, type OrganizationDomain } from '@partner-portal/contracts';
import type { Database, Queryable } from '../../db/client.js';
import { pgErrorCode } from '../../db/errors.js';
import { AppError } from '../../http/problem.js';
import type { Actor } from '../../http/session.js';
import type { AuditChange } from '../audit/service.js';
import { recordChange } from '../webhooks/changes.js';
import { organizationForActor } from '../scope/service.js';
import type { TxtLookup } from './dns.js';
import { isUnclaimableDomain } from './public-mail.js';
import * as q from './queries.js';
import { holdsValue, recordName, type DomainRecheck } from './recheck.js';
import type { SetupSteps } from '../setup-links/steps.js';

/**
 * Verified domains (docs/dealer-identity.md, "Verified domains"): an organization claims an e-mail
 * domain and proves that it controls it with a DNS TXT record; a verified domain serves the whole
 * subtree of the organization that verified it, so no other organization anywhere (ancestors and
 * descendants included) may claim or verify it then. Changes are the organization's
 * organizationManagers' (the managers of the organization: its own or an ancestor's); any manager
 * of the organization reads its domains.
 */

/** The value of a claim's TXT record: 32 random bytes (256 bits), base64url. */
function newVerificationValue(): string {
  return `partner-portal-verification=${randomBytes(32).toString('base64url')}`;
}

function verificationOf(claim: q.DomainClaimRow) {
  return { type: 'TXT' as const, name: recordName(claim.domain), value: claim.verification_value };
}

function isoOrNull(value: Date | string | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}

/** An audit entry about one of the organization's domains. */
function domainChange(org: { id: string; path: string }, action: string, domain: string, before?: unknown, after?: unknown): AuditChange {
  return { organizationId: org.id, organizationPath: org.path, action, targetType: 'domain', targetId: domain, before, after };
}

/** The domain of a path parameter, in the form the portal keeps (404 when it is none: nobody claimed it). */
function domainOfPath(value: string): string {
  const domain = toAsciiDomain(value);
  if (domain === null) throw new AppError('not_found');
  return domain;
}

/** 409 domain_claimed when an organization other than `organizationId` has verified the domain. */
async function assertNotVerifiedElsewhere(db: Queryable, organizationId: string, domain: string): Promise<void> {
  const holder = await q.findVerifiedDomain(db, domain);
  if (holder && holder.organization_id !== organizationId) throw new AppError('domain_claimed');
}

export class Domains {
  constructor(private readonly deps: { db: Database; dns: TxtLookup; recheck: DomainRecheck; setupSteps: SetupSteps }) {}

  /** The organization's own domains (with the record to publish) and its ancestors', verified or not. */
  async list(actor: Actor, organizationId: string): Promise<OrganizationDomain[]> {
    const { db } = this.deps;
    const { org } = await organizationForActor(db, actor, organizationId, { role: 'any' });
    const rows = await q.domainsOf(db, org.id, org.path);
    return rows.map((row) => ({
      domain: row.domain,
      verified: row.verified_at !== null,
      organization_id: row.organization_id,
      ...(row.organization_id === org.id ? { verification: verificationOf(row) } : {}),
      verified_at: isoOrNull(row.verified_at),
    }));
  }

  /**
   * Claim a domain (already in the portal's form: contracts, domainField). Claiming it again
   * answers the claim as it is, with the same value to publish.
   */
  async claim(actor: Actor, organizationId: string, domain: string): Promise<DomainClaimResponse> {
    const { db } = this.deps;
    const { org } = await organizationForActor(db, actor, organizationId, { role: 'organization' });
    if (isUnclaimableDomain(domain)) throw new AppError('domain_not_claimable');
    return db.transaction(async (tx) => {
      await assertNotVerifiedElsewhere(tx, org.id, domain);
      const inserted = await q.insertClaim(tx, org.id, domain, newVerificationValue());
      // claimed before (or by a request of the same organization at the same moment): that claim
      const claim = inserted ?? (await q.findClaim(tx, org.id, domain));
      if (!claim) throw new AppError('invalid_operation');
      if (inserted) await recordChange(tx, actor, domainChange(org, 'domain.claim', domain, undefined, { domain, verified: false }));
      return { domain: claim.domain, verified: claim.verified_at !== null, verification: verificationOf(claim) };
    });
  }

  /**
   * Look for the claim's TXT record: verified when it holds the value. A verified domain whose
   * record DNS says is gone loses its verification, as in the daily re-verification; when DNS does
   * not answer nothing changes. 409 domain_verification_failed unless the record is found.
   */
  async verify(actor: Actor, organizationId: string, domainParam: string): Promise<{ domain: string; verified: boolean }> {
    const { db, dns, recheck } = this.deps;
    const { org } = await organizationForActor(db, actor, organizationId, { role: 'organization' });
    const domain = domainOfPath(domainParam);
    const claim = await q.findClaim(db, org.id, domain);
    if (!claim) throw new AppError('not_found');
    await assertNotVerifiedElsewhere(db, org.id, domain);
    // outside any transaction: a lookup may take seconds
    const answer = await dns.txt(recordName(domain));
    if (holdsValue(answer, claim.verification_value)) {
      await this.markVerified(actor, org, domain);
      return { domain, verified: true };
    }
    if (answer.kind !== 'unanswered') {
      if (claim.verified_at !== null) await recheck.lose(actor, org, domain);
      else await q.markChecked(db, org.id, domain);
    }
    throw new AppError('domain_verification_failed');
  }

  /** Verified as of now; two organizations verifying at once: the unique index decides, the other gets domain_claimed. */
  private async markVerified(actor: Actor, org: { id: string; path: string }, domain: string): Promise<void> {
    const { db } = this.deps;
    try {
      await db.transaction(async (tx) => {
        const claim = await q.findClaim(tx, org.id, domain, { forUpdate: true });
        if (!claim) throw new AppError('not_found');
        await q.markVerified(tx, org.id, domain);
        if (claim.verified_at === null) {
          await recordChange(
            tx,
            actor,
            domainChange(org, 'domain.verify', domain, { domain, verified: false }, { domain, verified: true }),
          );
          await this.deps.setupSteps.completed(tx, actor, 'domain_verified', domain);
        }
      });
    } catch (err) {
      if (pgErrorCode(err) === '23505') throw new AppError('domain_claimed');
      throw err;
    }
  }

  /** Remove one of the organization's own claims (an ancestor's domain is removed there: 404 here). */
  async remove(actor: Actor, organizationId: string, domainParam: string): Promise<void> {
    const { db } = this.deps;
    const { org } = await organizationForActor(db, actor, organizationId, { role: 'organization' });
    const domain = domainOfPath(domainParam);
    await db.transaction(async (tx) => {
      const removed = await q.deleteClaim(tx, org.id, domain);
      if (!removed) throw new AppError('not_found');
      await recordChange(tx, actor, domainChange(org, 'domain.delete', domain, { domain, verified: removed.verified_at !== null }));
    });
  }
}
