import type { Database, Queryable } from '../../db/client.js';
import { JOB_ACTOR } from '../../http/actor.js';
import { recordChange } from '../webhooks/changes.js';
import * as q from './queries.js';

/**
 * Invitations past their expiry (docs/product.md, "Flows and states"): their state is EXPIRED as
 * soon as the time has passed (computed on read); the sweep writes it down, and with it each
 * one's invitation.expired event (docs/integrations.md, "Webhooks"). The job (jobs.ts) sweeps all
 * every minute; inviting or renewing an address sweeps that address first.
 */

/** Mark the address's (or, without one, up to `limit` of all) expired invitations, each with its event, in the caller's transaction. */
export async function markExpired(tx: Queryable, email?: string, limit?: number): Promise<number> {
  const expired = await q.sweepExpired(tx, email, limit);
  for (const row of expired) {
    // not audited (the time passed; nobody changed anything): only the event
    await recordChange(tx, JOB_ACTOR, {
      audited: false,
      events: [
        {
          type: 'invitation.expired',
          organization: { id: row.organization_id, path: row.organization_path },
          data: { invitation_id: row.id, email_address: row.email, expires_at: new Date(row.expires_at).toISOString() },
        },
      ],
    });
  }
  return expired.length;
}

const BATCH = 500;

/** The job: every invitation past its expiry marked EXPIRED, a batch per transaction. Returns how many. */
export async function expireInvitations(db: Database): Promise<number> {
  let total = 0;
  for (;;) {
    const marked = await db.transaction((tx) => markExpired(tx, undefined, BATCH));
    total += marked;
    if (marked < BATCH) return total;
  }
}
