import type { FactorsResponse } from '@partner-portal/contracts';
import type { Queryable } from '../../db/client.js';
import type { SessionUser } from '../../http/session.js';
import * as passkeyQueries from './passkey-queries.js';
import * as q from './queries.js';

/** What second factors a user has, and whether a policy requires one (the account page's overview). */
export class FactorOverview {
  constructor(private readonly deps: { db: Queryable }) {}

  async hasSecondFactor(userId: string): Promise<boolean> {
    const { db } = this.deps;
    const [totp, passkeys] = await Promise.all([q.findTotp(db, userId), passkeyQueries.listPasskeys(db, userId)]);
    return totp?.confirmed_at != null || passkeys.length > 0;
  }

  /** GET /api/factors. */
  async status(user: SessionUser): Promise<FactorsResponse> {
    const { db } = this.deps;
    const [totp, passkeys, remaining, required] = await Promise.all([
      q.findTotp(db, user.id),
      passkeyQueries.listPasskeys(db, user.id),
      q.countUnusedRecoveryCodes(db, user.id),
      q.userUnderPolicy(db, user.id),
    ]);
    const confirmedAt = totp?.confirmed_at ? new Date(totp.confirmed_at).toISOString() : null;
    return {
      totp: { enabled: confirmedAt !== null, confirmed_at: confirmedAt },
      passkeys: passkeys.map((p) => ({
        id: p.id,
        name: p.name,
        created_at: new Date(p.created_at).toISOString(),
        last_used_at: p.last_used_at ? new Date(p.last_used_at).toISOString() : null,
      })),
      recovery_codes_remaining: remaining,
      required,
    };
  }
}
