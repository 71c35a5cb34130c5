import { applyRightsRules, confirmationMismatch, toRights, withinHeldRights, type Rights } from '@partner-portal/contracts';
import { hashPassword } from '../../password-hashing.js';
import type { Database, Queryable } from '../../db/client.js';
import { AppError, type FieldErrors } from '../../http/problem.js';
import { audit } from '../audit/service.js';
import { rightsContextFor, validateRights } from '../members/rights-context.js';
import { pgErrorCode } from '../../db/errors.js';
import * as q from './queries.js';
import { passwordProblems } from '../identity/password-policy.js';
import { EXTERNAL_IDP_ID } from '../../oidc/upstream.js';
import { codeMatches } from './service.js';
import { memberEventData, recordEvent } from '../webhooks/outbox.js';

/**
 * Accepting an invitation (anyone with the link's code): a native account registers with a
 * password, an external one is linked at its first upstream login.
 */

export interface AcceptInput {
  invitation_code: string;
  first_name: string;
  last_name: string;
  language_code: string;
  password?: string | null | undefined;
  password_confirmation?: string | null | undefined;
  opt_in_for_newsletter: boolean;
  accept_agreement?: boolean | undefined;
}

function checkNativeRegistration(input: AcceptInput): void {
  const errors: FieldErrors = {};
  const password = input.password ?? '';
  // the same policy as every other new password: docs/product.md, "Validation" rules and the common-password block-list
  const problems = passwordProblems(password);
  if (problems.length) errors.password = problems.map((key) => ({ message: key, translation_key: key }));
  if (!input.password_confirmation) {
    errors.password_confirmation = [{ message: 'password_required', translation_key: 'password_required' }];
  } else if (confirmationMismatch(password, input.password_confirmation)) {
    errors.password_confirmation = [{ message: 'password_error_no_match', translation_key: 'password_error_no_match' }];
  }
  if (Object.keys(errors).length) {
    const keys = Object.fromEntries(Object.entries(errors).map(([field, list]) => [field, list.map((e) => e.translation_key)]));
    throw AppError.validation(keys as Parameters<typeof AppError.validation>[0]);
  }
}

/**
 * Rights of an invitation kept to what its inviter holds at acceptance (contracts delegation.ts):
 * an invitation made before that rule, or by someone who has lost rights since, gives no more.
 * An inviter who is gone no longer answers for it: the rights were checked when it was made.
 */
async function withinInviterRights(
  tx: Queryable,
  invitedBy: string | null,
  rights: Rights,
  ctx: Parameters<typeof validateRights>[1],
): Promise<Rights> {
  if (!invitedBy) return rights;
  const inviter = await q.findInviterRights(tx, invitedBy);
  if (!inviter) return rights;
  return applyRightsRules(withinHeldRights({ rights: toRights(inviter.rights), isDeveloper: inviter.is_developer }, rights), ctx);
}

/** Rights stored with an invitation, applied to the organization as it is at acceptance. */
function validateRightsLenient(stored: unknown, ctx: Parameters<typeof validateRights>[1]): Rights {
  const rights = toRights(stored);
  try {
    return validateRights(rights, ctx, null);
  } catch {
    // the organization changed since the invitation (apps removed): keep what is still allowed
    return applyRightsRules(rights, ctx);
  }
}

/** Accepting invitations, by whoever holds a link's code (no sign-in). */
export class InvitationAcceptance {
  constructor(private readonly deps: { db: Database }) {}

  /**
   * Accept: only PENDING. Native accounts register with a password; external accounts get no
   * password and are linked to their upstream identity at the first external login
   * (users.external_idp = 'external', external_subject NULL until then). The invitation row is
   * locked, so of two concurrent accepts exactly one wins; the other sees ACCEPTED (409).
   */
  async accept(invitationId: string, input: AcceptInput, requestId: string): Promise<void> {
    const { db } = this.deps;
    const first = await q.findInvitation(db, invitationId);
    if (!first || !codeMatches(first, input.invitation_code)) throw new AppError('unknown_invitation');
    if (first.state !== 'PENDING')
      throw new AppError('only_pending_invitations_can_be_accepted', { params: { invitation_state: first.state } });
    if (input.accept_agreement === false) throw AppError.validation({ accept_agreement: 'agreement_required' });
    const isExternal = first.is_external_identity_provider;
    let passwordHash: string | null = null;
    if (!isExternal) {
      checkNativeRegistration(input);
      passwordHash = await hashPassword(input.password!);
    }
    try {
      await db.transaction(async (tx) => {
        const inv = await q.findInvitation(tx, invitationId, { forUpdate: true });
        if (!inv || inv.code_hash !== first.code_hash) throw new AppError('unknown_invitation');
        if (inv.state !== 'PENDING')
          throw new AppError('only_pending_invitations_can_be_accepted', { params: { invitation_state: inv.state } });
        if (await q.userExists(tx, inv.email)) throw new AppError('email_address_already_exists');
        const ctx = await rightsContextFor(tx, { id: inv.organization_id, depth: inv.organization_depth }, true);
        const rights = await withinInviterRights(tx, inv.invited_by, validateRightsLenient(inv.rights, ctx), ctx);
        const userId = await q.insertUser(tx, {
          email: inv.email,
          firstName: input.first_name.trim(),
          lastName: input.last_name.trim(),
          languageCode: input.language_code,
          passwordHash,
          externalIdp: isExternal ? EXTERNAL_IDP_ID : null,
          newsletter: input.opt_in_for_newsletter,
          isDeveloper: inv.organization_depth === 0 && rights.partner_portal.developer === true,
        });
        const membershipId = await q.insertMembership(tx, {
          organizationId: inv.organization_id,
          userId,
          email: inv.email,
          organizationPath: inv.organization_path,
          rights,
        });
        await q.markAccepted(tx, inv.id, userId);
        await audit(
          tx,
          { userId, email: inv.email, requestId },
          {
            organizationId: inv.organization_id,
            organizationPath: inv.organization_path,
            action: 'invitation.accept',
            targetType: 'invitation',
            targetId: inv.id,
            before: { state: 'PENDING' },
            after: { state: 'ACCEPTED', user_id: userId, membership_id: membershipId, external: isExternal, rights },
          },
        );
        const organization = { id: inv.organization_id, path: inv.organization_path };
        await recordEvent(tx, {
          type: 'invitation.accepted',
          organization,
          data: { invitation_id: inv.id, email_address: inv.email, member_id: membershipId, user_id: userId },
        });
        await recordEvent(tx, {
          type: 'member.created',
          organization,
          data: {
            ...memberEventData({
              membership_id: membershipId,
              user_id: userId,
              email: inv.email,
              first_name: input.first_name.trim(),
              last_name: input.last_name.trim(),
              language_code: input.language_code,
              rights,
            }),
            source: 'invitation',
            invitation_id: inv.id,
          },
        });
      });
    } catch (err) {
      if (pgErrorCode(err) === '23505') throw new AppError('email_address_already_exists');
      throw err;
    }
  }
}
