import type { Database } from '../../db/client.js';
import type { Actor } from '../../http/session.js';
import { withRefusalAudit } from '../audit/service.js';
import { recordChange } from '../webhooks/changes.js';
import type { SecurityNoticeSender } from '../mail/security-notices.js';
import { memberForChange } from '../members/service.js';
import * as passkeyQueries from './passkey-queries.js';
import * as q from './queries.js';

/**
 * An administrator's reset of a member's second factors (a lost phone; docs/second-factors.md):
 * the authenticator app, the passkeys and the recovery codes go, audited, and the member is told.
 */
export class MemberFactorReset {
  constructor(private readonly deps: { db: Database; notify: SecurityNoticeSender }) {}

  /**
   * DELETE /api/members/{memberId}/second-factors: a userManager removes a member's second
   * factors, with the same authorization as changing the member's rights. Audited; the member is
   * told by e-mail.
   */
  async reset(actor: Actor, memberId: string): Promise<void> {
    const { db } = this.deps;
    await withRefusalAudit(db, actor, () =>
      db.transaction(async (tx) => {
        const { row: member, change } = await memberForChange(tx, actor, memberId, (row) => ({
          organizationId: row.organization_id,
          organizationPath: row.organization_path,
          action: 'member.second_factors.reset',
          targetType: 'member',
          targetId: row.id,
          before: { email_address: row.email },
        }));
        const hadTotp = await q.deleteTotp(tx, member.user_id);
        const passkeys = await passkeyQueries.deletePasskeys(tx, member.user_id);
        await q.deleteRecoveryCodes(tx, member.user_id);
        await recordChange(tx, actor, {
          ...change,
          before: { email_address: member.email, totp: hadTotp, passkeys },
          after: { totp: false, passkeys: 0 },
        });
        await this.deps.notify(member.user_id, 'factors-reset', tx);
      }),
    );
  }
}
