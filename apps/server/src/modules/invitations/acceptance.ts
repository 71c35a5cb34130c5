import { applyRightsRules, confirmationMismatch, toRights, withinHeldRights, type Rights } from '@partner-portal/contracts';
import { hashPassword } from '../../password-hashing.js';
import type { Database, Queryable } from '../../db/client.js';
import { AppError, type FieldErrors } from '../../http/problem.js';
import { rightsContextFor, validateRights } from '../members/rights-context.js';
import { pgErrorCode } from '../../db/errors.js';
import * as q from './queries.js';
import { passwordProblems } from '../identity/password-policy.js';
import { EXTERNAL_IDP_ID } from '../../oidc/upstream.js';
import { codeMatches } from './service.js';
import type { ConnectionInvitations } from '../identity/upstream-link.js';
import type { SsoRouting } from '../sso/routing.js';
import { memberEventData, recordChange } from '../webhooks/changes.js';

/**
 * Accepting an invitation (anyone with the link's code): a native account registers with a
 * password, an external one is linked at its first upstream login; or, for an address a single
 * sign-on connection serves, by signing in through the connection (identity/upstream-link.ts).
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

/**
 * Accept the invitation of a member a directory provisioned (modules/scim): the member exists
 * already, without a way to sign in; they register with a password (and their names where the
 * directory gave none). An account that meanwhile has a password, another way in, or is
 * deactivated no longer takes the invitation (409).
 */
async function acceptAsProvisionedMember(
  tx: Queryable,
  inv: q.InvitationRow,
  input: AcceptInput,
  passwordHash: string,
  requestId: string,
): Promise<void> {
  const account = await q.findProvisionedAccount(tx, inv.member_id!);
  if (!account || account.email.toLowerCase() !== inv.email.toLowerCase()) throw new AppError('unknown_invitation');
  if (account.password_hash || account.external_idp || account.deactivated_at) throw new AppError('email_address_already_exists');
  await q.completeRegistration(tx, account.user_id, {
    firstName: input.first_name.trim(),
    lastName: input.last_name.trim(),
    languageCode: input.language_code,
    passwordHash,
    newsletter: input.opt_in_for_newsletter,
  });
  await q.markAccepted(tx, inv.id, account.user_id);
  await recordChange(
    tx,
    { kind: 'person', userId: account.user_id, email: inv.email, requestId },
    {
      organizationId: inv.organization_id,
      organizationPath: inv.organization_path,
      action: 'invitation.accept',
      targetType: 'invitation',
      targetId: inv.id,
      before: { state: 'PENDING' },
      after: { state: 'ACCEPTED', user_id: account.user_id, membership_id: inv.member_id, external: false },
      events: [
        {
          type: 'invitation.accepted',
          organization: { id: inv.organization_id, path: inv.organization_path },
          data: { invitation_id: inv.id, email_address: inv.email, member_id: inv.member_id!, user_id: account.user_id },
        },
      ],
    },
  );
}

/** Accepting invitations, by whoever holds a link's code (no sign-in), or by signing in through a connection. */
export class InvitationAcceptance implements ConnectionInvitations {
  constructor(private readonly deps: { db: Database; routing: SsoRouting }) {}

  /**
   * Accept: only PENDING. Native accounts register with a password; external accounts get no
   * password and are linked to their upstream identity at the first external login
   * (users.external_idp = the id of the provider the address signs in at: a single sign-on
   * connection's, or 'external'; external_subject NULL until then). An invitation of an address
   * a connection serves is external even when it was made before the connection. The invitation
   * row is locked, so of two concurrent accepts exactly one wins; the other sees ACCEPTED (409).
   */
  async accept(invitationId: string, input: AcceptInput, requestId: string): Promise<void> {
    const { db, routing } = this.deps;
    const first = await q.findInvitation(db, invitationId);
    if (!first || !codeMatches(first, input.invitation_code)) throw new AppError('unknown_invitation');
    if (first.state !== 'PENDING')
      throw new AppError('only_pending_invitations_can_be_accepted', { params: { invitation_state: first.state } });
    if (input.accept_agreement === false) throw AppError.validation({ accept_agreement: 'agreement_required' });
    const route = await routing.forInvitation(first.email, first.organization_path);
    const isExternal = first.is_external_identity_provider || route !== null;
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
        if (inv.member_id) return acceptAsProvisionedMember(tx, inv, input, passwordHash!, requestId);
        if (await q.userExists(tx, inv.email)) throw new AppError('email_address_already_exists');
        await this.createMember(tx, inv, requestId, {
          firstName: input.first_name.trim(),
          lastName: input.last_name.trim(),
          languageCode: input.language_code,
          passwordHash,
          externalIdp: isExternal ? (route?.id ?? EXTERNAL_IDP_ID) : null,
          externalSubject: null,
          newsletter: input.opt_in_for_newsletter,
        });
      });
    } catch (err) {
      if (pgErrorCode(err) === '23505') throw new AppError('email_address_already_exists');
      throw err;
    }
  }

  /** Whether a pending invitation of the address waits in the subtree at `organizationPath` (a connection's test sign-in). */
  async pendingIn(email: string, organizationPath: string): Promise<boolean> {
    return (await q.findPendingInSubtree(this.deps.db, email, organizationPath)) !== null;
  }

  /**
   * A sign-in through a connection accepts the address's pending invitation into the connection's
   * subtree: the account is made linked to the provider's subject, with the invitation's language
   * and rights and the names the provider gave. The user's id, or null when none waits.
   */
  async acceptThrough(input: {
    email: string;
    organizationPath: string;
    connectionId: string;
    subject: string;
    firstName: string;
    lastName: string;
    requestId: string;
  }): Promise<string | null> {
    return this.deps.db.transaction(async (tx) => {
      const inv = await q.findPendingInSubtree(tx, input.email, input.organizationPath, { forUpdate: true });
      if (!inv || (await q.userExists(tx, inv.email))) return null;
      return this.createMember(tx, inv, input.requestId, {
        firstName: input.firstName,
        lastName: input.lastName,
        languageCode: inv.language_code,
        passwordHash: null,
        externalIdp: input.connectionId,
        externalSubject: input.subject,
        newsletter: false,
      });
    });
  }

  /** The account and membership an accepted invitation makes, with the rights it may still give; the invitation accepted and audited. */
  private async createMember(
    tx: Queryable,
    inv: q.InvitationRow,
    requestId: string,
    person: {
      firstName: string;
      lastName: string;
      languageCode: string;
      passwordHash: string | null;
      externalIdp: string | null;
      externalSubject: string | null;
      newsletter: boolean;
    },
  ): Promise<string> {
    const ctx = await rightsContextFor(tx, { id: inv.organization_id, depth: inv.organization_depth }, true);
    const rights = await withinInviterRights(tx, inv.invited_by, validateRightsLenient(inv.rights, ctx), ctx);
    const userId = await q.insertUser(tx, {
      email: inv.email,
      firstName: person.firstName,
      lastName: person.lastName,
      languageCode: person.languageCode,
      passwordHash: person.passwordHash,
      externalIdp: person.externalIdp,
      externalSubject: person.externalSubject,
      newsletter: person.newsletter,
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
    const organization = { id: inv.organization_id, path: inv.organization_path };
    await recordChange(
      tx,
      { kind: 'person', userId, email: inv.email, requestId },
      {
        organizationId: inv.organization_id,
        organizationPath: inv.organization_path,
        action: 'invitation.accept',
        targetType: 'invitation',
        targetId: inv.id,
        before: { state: 'PENDING' },
        after: {
          state: 'ACCEPTED',
          user_id: userId,
          membership_id: membershipId,
          external: person.externalIdp !== null,
          ...(person.externalSubject ? { signed_in_through: person.externalIdp } : {}),
          rights,
        },
        events: [
          {
            type: 'invitation.accepted',
            organization,
            data: { invitation_id: inv.id, email_address: inv.email, member_id: membershipId, user_id: userId },
          },
          {
            type: 'member.created',
            organization,
            data: {
              ...memberEventData({
                membership_id: membershipId,
                user_id: userId,
                email: inv.email,
                first_name: person.firstName,
                last_name: person.lastName,
                language_code: person.languageCode,
                rights,
              }),
              source: 'invitation',
              invitation_id: inv.id,
            },
          },
        ],
      },
    );
    return userId;
  }
}
