import { timingSafeEqual } from 'node:crypto';
import { DEFAULT_USER_LANGUAGE, isDomainAllowed, rightsNotHeld, type Invitation, type Rights } from '@partner-portal/contracts';
import type { Config } from '../../config.js';
import type { Database, Queryable } from '../../db/client.js';
import { AppError } from '../../http/problem.js';
import { senderNameOf } from '../../http/actor.js';
import { actingAs, hashSecret, newSecret, type Actor } from '../../http/session.js';
import type { Mailer } from '../mail/mailer.js';
import { invitationEmail } from '../mail/messages.js';
import { auditRefusal, RefusedChange, type AuditActor } from '../audit/service.js';
import { delegatorOf, rightsContextFor, validateRights } from '../members/rights-context.js';
import { pgErrorCode } from '../../db/errors.js';
import { assertInSubtree, requireRole } from '../scope/access.js';
import { listEmailDomains } from '../organizations/queries.js';
import { organizationForActor } from '../scope/service.js';
import type { SsoRouting } from '../sso/routing.js';
import { invitationCreatedEvent, recordChange } from '../webhooks/changes.js';
import { markExpired } from './expiry.js';
import * as q from './queries.js';
import type { InvitationRow } from './queries.js';

/**
 * Invitations (docs/product.md, "Flows and states" and "Validation" and "Calls"). userManagers of an organization's subtree invite, resend and
 * revoke; anyone holding the link's code reads and accepts. Codes carry 256 bits and are kept only
 * as SHA-256 hashes; a resend issues a new code (the old link stops working). An expired invitation may be resent (it is pending
 * again) or revoked.
 */

/** The invitation page's link: its code, and its language (the page speaks the language of the e-mail). */
export function invitationLink(config: Config, invitation: { id: string; isExternal: boolean; language: string }, code: string): string {
  const route = invitation.isExternal ? 'invitation-external-identity' : 'invitation';
  return `${config.publicUrl}/${route}/${invitation.id}?code=${encodeURIComponent(code)}&lang=${encodeURIComponent(invitation.language)}`;
}

export function codeMatches(row: InvitationRow, code: string | undefined): boolean {
  if (!code || code.length > 200) return false;
  const a = Buffer.from(hashSecret(code));
  const b = Buffer.from(row.code_hash);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Who the invitation e-mail says invites: the person, the service account by its name, a directory by its organization's (http/actor.ts). */
const inviterNameOf = senderNameOf;

export interface InvitationInput {
  email_address: string;
  language_code?: string | null | undefined;
  rights?: Rights | null | undefined;
  is_external_identity_provider?: boolean | null | undefined;
}

/** An invitation made and not yet e-mailed: its row and the link's code (kept nowhere else). */
export interface MadeInvitation {
  row: InvitationRow;
  code: string;
}

function toInvitationWithOrg(row: InvitationRow): Invitation {
  return q.toInvitation(row, true);
}

async function loadForManager(
  db: Queryable,
  actor: Actor,
  invitationId: string,
  options: { forUpdate?: boolean } = {},
): Promise<InvitationRow> {
  const member = requireRole(actor, 'user');
  const row = await q.findInvitation(db, invitationId, options);
  if (!row) throw new AppError('unknown_invitation');
  assertInSubtree(member, row.organization_path);
  return row;
}

function loadForManagerTx(tx: Queryable, actor: Actor, invitationId: string): Promise<InvitationRow> {
  return loadForManager(tx, actor, invitationId, { forUpdate: true });
}

/**
 * A resend of a pending invitation within this many seconds of its last resend is the same sending
 * (Invitations.resend): long enough for a burst of concurrent requests, a double click or a
 * client's retry, short enough that a userManager's deliberate "send again" is sent.
 */
const RESEND_SAME_SENDING_SECONDS = 10;

/** An expired invitation is sent again only while its address has no account and no other pending invitation (as when inviting). */
async function assertMayRenew(tx: Queryable, email: string): Promise<void> {
  if (await q.userExists(tx, email)) throw new AppError('email_address_already_exists');
  await markExpired(tx, email);
  if (await q.hasPendingInvitation(tx, email)) throw new AppError('invitation_already_pending');
}

/**
 * The invitations of the actor's subtree (the rules: the comment at the top of this file): made,
 * e-mailed, read by the link's holder, resent and revoked.
 */
export class Invitations {
  constructor(private readonly deps: { db: Database; config: Config; mailer: Mailer; routing: SsoRouting }) {}

  /**
   * Make one invitation in the caller's transaction, with every rule of inviting one address (the
   * actor's subtree, allowed domains, no member or pending invitation yet, rights the organization
   * may have and the actor holds) and its audit entry. Nothing is e-mailed: the caller writes the
   * e-mail with `mail` in the same transaction. A refused change throws (RefusedChange for
   * rights not held; the caller audits it outside the rolled-back work).
   */
  async make(tx: Queryable, actor: Actor, organizationId: string, input: InvitationInput): Promise<MadeInvitation> {
    const { config } = this.deps;
    const { org } = await organizationForActor(tx, actor, organizationId, { role: 'user' });
    const email = input.email_address.trim();
    const code = newSecret();
    const domains = await listEmailDomains(tx, org.id);
    if (!isDomainAllowed(email, domains)) {
      const listed = domains.map((d) => `@${d}`);
      throw new AppError('not_allowed_to_invite_other_domains', { messages: listed, params: { domains: listed.join(', ') } });
    }
    if (await q.userExists(tx, email)) throw new AppError('email_address_already_exists');
    await markExpired(tx, email);
    if (await q.hasPendingInvitation(tx, email)) throw new AppError('invitation_already_pending');
    let rights: Rights | null = null;
    if (input.rights) rights = validateRights(input.rights, await rightsContextFor(tx, org, actingAs(actor).isDeveloper), null);
    const notHeld = rights ? rightsNotHeld(delegatorOf(actor), rights) : [];
    if (notHeld.length) {
      const attempted = {
        organizationId: org.id,
        organizationPath: org.path,
        action: 'invitation.create',
        targetType: 'invitation',
        targetId: null,
        after: { email_address: email, rights },
      };
      throw new RefusedChange('cannot_grant_rights_not_held', attempted, { messages: notHeld, params: { rights: notHeld.join(', ') } });
    }
    // an address a single sign-on connection (or EXTERNAL_IDP_EMAIL_DOMAINS) serves for this
    // organization accepts by signing in there (modules/sso/routing.ts)
    const isExternal =
      input.is_external_identity_provider === true || (await this.deps.routing.forInvitation(email, org.path, tx)) !== null;
    const id = await q.insertInvitation(tx, {
      organizationId: org.id,
      email,
      codeHash: hashSecret(code),
      languageCode: input.language_code ?? (actor.user?.languageCode || DEFAULT_USER_LANGUAGE),
      isExternal,
      rights,
      invitedBy: actor.user?.id ?? null,
      ttlHours: config.INVITATION_TTL_HOURS,
    });
    const row = (await q.findInvitation(tx, id))!;
    await recordChange(tx, actor, {
      organizationId: org.id,
      organizationPath: org.path,
      action: 'invitation.create',
      targetType: 'invitation',
      targetId: id,
      after: { email_address: email, language_code: row.language_code, is_external_identity_provider: isExternal, rights },
      events: [invitationCreatedEvent(row, rights)],
    });
    return { row, code };
  }

  /** E-mail a made invitation's link, from the actor, in the transaction that made it (the mail outbox). */
  async mail(actor: Actor, made: MadeInvitation, tx: Queryable): Promise<void> {
    await this.send(made.row, made.code, inviterNameOf(actor), tx);
  }

  /**
   * An invitation for a member a directory provisioned without a way to sign in (modules/scim):
   * accepting it gives that member a password (acceptance.ts) instead of making an account. Made
   * in the caller's transaction (which checked the member) and audited with its actor; the caller
   * e-mails it with `mailFrom` in that transaction.
   */
  async makeForMember(
    tx: Queryable,
    actor: AuditActor,
    member: { id: string; organizationId: string; organizationPath: string; email: string; languageCode: string },
  ): Promise<MadeInvitation> {
    const code = newSecret();
    const id = await q.insertInvitation(tx, {
      organizationId: member.organizationId,
      email: member.email,
      codeHash: hashSecret(code),
      languageCode: member.languageCode,
      isExternal: false,
      rights: null,
      invitedBy: null,
      ttlHours: this.deps.config.INVITATION_TTL_HOURS,
      memberId: member.id,
    });
    const row = (await q.findInvitation(tx, id))!;
    await recordChange(tx, actor, {
      organizationId: member.organizationId,
      organizationPath: member.organizationPath,
      action: 'invitation.create',
      targetType: 'invitation',
      targetId: id,
      after: { email_address: member.email, language_code: row.language_code, is_external_identity_provider: false, member_id: member.id },
      events: [invitationCreatedEvent(row, null)],
    });
    return { row, code };
  }

  /** E-mail a made invitation's link in the name of `inviterName`, in the transaction that made it. */
  async mailFrom(made: MadeInvitation, inviterName: string, tx: Queryable): Promise<void> {
    await this.send(made.row, made.code, inviterName, tx);
  }

  /** Revoke a pending or expired invitation in the caller's transaction, audited with its actor. */
  async revokeIn(tx: Queryable, actor: AuditActor, inv: InvitationRow): Promise<void> {
    await q.markRevoked(tx, inv.id);
    await recordChange(tx, actor, {
      organizationId: inv.organization_id,
      organizationPath: inv.organization_path,
      action: 'invitation.revoke',
      targetType: 'invitation',
      targetId: inv.id,
      before: { state: inv.state, email_address: inv.email },
      after: { state: 'REVOKED' },
      events: [
        {
          type: 'invitation.revoked',
          organization: { id: inv.organization_id, path: inv.organization_path },
          data: { invitation_id: inv.id, email_address: inv.email },
        },
      ],
    });
  }

  /** Invite one address: the invitation made (`make`, a refusal audited) and its link e-mailed (`mail`), in one transaction. */
  async create(actor: Actor, organizationId: string, input: InvitationInput): Promise<{ invitation: Invitation; organizationId: string }> {
    const { db } = this.deps;
    let made: MadeInvitation;
    try {
      made = await db.transaction(async (tx) => {
        const invitation = await this.make(tx, actor, organizationId, input);
        await this.mail(actor, invitation, tx);
        return invitation;
      });
    } catch (err) {
      if (err instanceof RefusedChange) await auditRefusal(db, actor, err);
      if (pgErrorCode(err) === '23505') throw new AppError('invitation_already_pending');
      throw err;
    }
    return { invitation: toInvitationWithOrg(made.row), organizationId: made.row.organization_id };
  }

  /**
   * GET /api/invitations/{id}: the invitation behind a link. The id alone is enough, as a client of
   * the documented call sends it (ids are random UUIDs, never listed outside the inviting subtree);
   * a link's code, when it comes along, must be the current one, so an old link (resent) is unknown.
   */
  async read(invitationId: string, code: string | undefined): Promise<Invitation> {
    const { db } = this.deps;
    const row = await q.findInvitation(db, invitationId);
    if (!row || (code !== undefined && !codeMatches(row, code))) throw new AppError('unknown_invitation');
    const invitation = toInvitationWithOrg(row);
    // made before a connection served its address: it is accepted there now (acceptance.ts), and
    // the page of external identities shows it
    if (row.state === 'PENDING' && !row.is_external_identity_provider) {
      invitation.is_external_identity_provider = (await this.deps.routing.forInvitation(row.email, row.organization_path)) !== null;
    }
    return invitation;
  }

  /**
   * Send a pending (or expired) invitation again with a new code (the old link stops working).
   *
   * The change is decided under the invitation's row lock and by the conditional UPDATE of
   * q.renewCode, and only the request that changed the row audits it and writes the e-mail (in its
   * transaction: the mail outbox). A
   * resend that finds the invitation resent less than RESEND_SAME_SENDING_SECONDS ago is the same
   * sending (a double click, a retried request, a burst of concurrent ones: the requests that
   * waited for the lock see the invitation the first one renewed, pending again): it answers 204
   * like the first, changes nothing and sends nothing, and the e-mail just sent keeps a working
   * link. Ten concurrent resends of an expired invitation used to send ten e-mails, each with its
   * own code (test/invitations/concurrent-resends.test.ts). A deliberate "send again" after that
   * is sent again, as every resend of a pending invitation is.
   */
  async resend(actor: Actor, invitationId: string): Promise<void> {
    const { db, config } = this.deps;
    const code = newSecret();
    await db.transaction(async (tx) => {
      const inv = await loadForManagerTx(tx, actor, invitationId);
      if (inv.state !== 'PENDING' && inv.state !== 'EXPIRED')
        throw new AppError('only_pending_invitations_can_be_resent', { params: { invitation_state: inv.state } });
      // a provisioned member's invitation (modules/scim) is for an account that exists already
      if (inv.state === 'EXPIRED' && !inv.member_id) await assertMayRenew(tx, inv.email);
      if (!(await q.renewCode(tx, inv.id, hashSecret(code), config.INVITATION_TTL_HOURS, RESEND_SAME_SENDING_SECONDS))) return;
      await recordChange(tx, actor, {
        organizationId: inv.organization_id,
        organizationPath: inv.organization_path,
        action: 'invitation.resend',
        targetType: 'invitation',
        targetId: inv.id,
        before: { last_sent_at: inv.last_sent_at ? new Date(inv.last_sent_at).toISOString() : null },
      });
      await this.send(inv, code, inviterNameOf(actor), tx);
    });
  }

  /** Revoke a pending invitation; irreversible. */
  async revoke(actor: Actor, invitationId: string): Promise<void> {
    const { db } = this.deps;
    await db.transaction(async (tx) => {
      const inv = await loadForManagerTx(tx, actor, invitationId);
      if (inv.state !== 'PENDING' && inv.state !== 'EXPIRED')
        throw new AppError('only_pending_invitations_can_be_revoked', { params: { invitation_state: inv.state } });
      await this.revokeIn(tx, actor, inv);
    });
  }

  /** E-mail an invitation's link with its code, in the invitation's language, in the transaction of the change (the mail outbox). */
  private async send(row: InvitationRow, code: string, inviterName: string, tx: Queryable): Promise<void> {
    const { config, mailer, routing } = this.deps;
    // a connection that serves the address since the invitation was made: its sign-in accepts it
    const isExternal = row.is_external_identity_provider || (await routing.forInvitation(row.email, row.organization_path, tx)) !== null;
    const link = invitationLink(config, { id: row.id, isExternal, language: row.language_code }, code);
    await mailer.enqueue(
      {
        to: row.email,
        kind: 'invitation',
        ...invitationEmail({
          language: row.language_code,
          link,
          organizationName: row.organization_name,
          inviterName,
          isExternal,
        }),
      },
      { tx },
    );
  }
}
