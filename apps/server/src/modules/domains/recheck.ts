import { isOrganizationManager, toRights } from '@partner-portal/contracts';
import { JOB_ACTOR } from '../../http/actor.js';
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import type { Database, Queryable } from '../../db/client.js';
import type { Actor } from '../../http/session.js';
import { recordChange } from '../webhooks/changes.js';
import type { Mailer } from '../mail/mailer.js';
import { domainUnverifiedEmail } from '../mail/messages.js';
import type { TxtAnswer, TxtLookup } from './dns.js';
import * as q from './queries.js';

/**
 * Verified domains stay verified only while their record stays published (docs/dealer-identity.md,
 * "Verified domains"). Every hour (jobs.ts) each instance takes the verified domains last looked at
 * DOMAIN_RECHECK_HOURS ago or earlier (queries.ts, takeDueDomains: FOR UPDATE SKIP LOCKED and a
 * mark of its own, so that instances share the work) and asks DNS again, outside any transaction:
 * - the record is there: verified as of now;
 * - DNS says it is gone (NXDOMAIN, no TXT record, or not the value): the domain loses its
 *   verification, audited as 'domain.unverified', and the organization's organizationManagers
 *   are told by e-mail, each in their language;
 * - DNS did not answer (a timeout, SERVFAIL, a refusal): nothing changes, not even checked_at, so
 *   the next round asks again.
 */

/** The TXT record's name for a domain: `_partner-portal.<domain>`. */
export function recordName(domain: string): string {
  return `_partner-portal.${domain}`;
}

/** Whether DNS's answer holds the claim's value. */
export function holdsValue(answer: TxtAnswer, value: string): boolean {
  return answer.kind === 'records' && answer.values.includes(value);
}

/** What one round did. */
export interface RecheckRound {
  /** the record was found again */
  kept: number;
  /** the record is gone: verification lost */
  lost: number;
  /** DNS did not answer: asked again next round */
  unanswered: number;
}

/** Domains taken for a look at once (their lookups run side by side). */
const BATCH = 20;

/** The job's actor in the audit log (http/actor.ts): a job, no user. */
const NO_ACTOR = JOB_ACTOR;

export interface DomainOrganization {
  id: string;
  path: string;
  name: string;
}

export class DomainRecheck {
  constructor(
    private readonly deps: {
      db: Database;
      dns: TxtLookup;
      mailer: Mailer;
      config: Pick<Config, 'publicUrl' | 'DOMAIN_RECHECK_HOURS'>;
      log: Logger;
    },
  ) {}

  /** One round over the domains due at `now` (tests pass a later time rather than wait). */
  async recheckDue(now: Date = new Date()): Promise<RecheckRound> {
    const { db, config } = this.deps;
    const round: RecheckRound = { kept: 0, lost: 0, unanswered: 0 };
    const taken: string[] = [];
    for (;;) {
      const due = await q.takeDueDomains(db, now, config.DOMAIN_RECHECK_HOURS, BATCH, taken);
      taken.push(...due.map((d) => `${d.organization_id} ${d.domain}`));
      await Promise.all(due.map((d) => this.recheck(d, round)));
      if (due.length < BATCH) return round;
    }
  }

  private async recheck(due: q.DueDomainRow, round: RecheckRound): Promise<void> {
    const { db, dns, log } = this.deps;
    try {
      const answer = await dns.txt(recordName(due.domain));
      if (answer.kind === 'unanswered') {
        round.unanswered++;
        log.warn({ domain: due.domain, code: answer.code }, 'domain re-verification: DNS did not answer, asking again next round');
        await q.releaseRecheck(db, due.organization_id, due.domain);
      } else if (holdsValue(answer, due.verification_value)) {
        round.kept++;
        await q.confirmVerified(db, due.organization_id, due.domain);
      } else {
        round.lost++;
        const org = { id: due.organization_id, path: due.organization_path, name: due.organization_name };
        await this.lose(null, org, due.domain);
      }
    } catch (err) {
      // the domain's mark runs out and a later round takes it again
      log.error({ err, domain: due.domain }, 'domain re-verification failed');
    }
  }

  /**
   * A verified domain's record is gone: it is verified no more (audited, by the actor or, for the
   * job, by nobody), and the organizationManagers' e-mails are written to the outbox in the same
   * transaction. False when it was not verified (any longer).
   */
  async lose(actor: Actor | null, org: DomainOrganization, domain: string): Promise<boolean> {
    return this.deps.db.transaction(async (tx) => {
      if (!(await q.markUnverified(tx, org.id, domain))) return false;
      await recordChange(tx, actor ?? NO_ACTOR, {
        organizationId: org.id,
        organizationPath: org.path,
        action: 'domain.unverified',
        targetType: 'domain',
        targetId: domain,
        before: { domain, verified: true },
        after: { domain, verified: false },
      });
      await this.tellManagers(tx, org, domain);
      return true;
    });
  }

  /**
   * E-mail the organizationManagers of the organization (or, when it has none, of its nearest
   * ancestor that has some) that the domain lost its verification: in the caller's transaction.
   */
  private async tellManagers(tx: Queryable, org: DomainOrganization, domain: string): Promise<void> {
    const { mailer, config } = this.deps;
    const candidates = (await q.membersAtOrAbove(tx, org.path)).filter((m) => isOrganizationManager(toRights(m.rights)));
    const nearest = candidates[0]?.depth;
    const link = `${config.publicUrl}/manage-organization/${encodeURIComponent(org.id)}#identity`;
    for (const manager of candidates.filter((m) => m.depth === nearest)) {
      const message = domainUnverifiedEmail({
        language: manager.language_code,
        firstName: manager.first_name,
        link,
        domain,
        recordName: recordName(domain),
        organizationName: org.name,
      });
      await mailer.enqueue({ to: manager.email, ...message, kind: 'domain-unverified' }, { tx });
    }
  }
}
