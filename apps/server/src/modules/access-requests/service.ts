import type { Logger } from 'pino';
import {
  DEFAULT_USER_LANGUAGE,
  interfaceLanguageOfAcceptLanguage,
  userLanguageFor,
  type AccessRequest,
  type Rights,
} from '@partner-portal/contracts';
import type { Config } from '../../config.js';
import type { Database, Queryable } from '../../db/client.js';
import { pgErrorCode } from '../../db/errors.js';
import { AppError } from '../../http/problem.js';
import type { CounterStore } from '../../http/rate-limit.js';
import type { Actor } from '../../http/session.js';
import { auditRefusal, RefusedChange } from '../audit/service.js';
import { recordChange } from '../webhooks/changes.js';
import { throttleAccountAndIp } from '../identity/login-throttle.js';
import type { Invitations, MadeInvitation } from '../invitations/service.js';
import {
  accessRequestDeclinedEmail,
  accessRequestManagerEmail,
  accessRequestReminderEmail,
  accessRequestSalesEmail,
  type RequesterDetails,
} from '../mail/access-request-messages.js';
import type { Mailer } from '../mail/mailer.js';
import { assertInSubtree, requireRole, type MemberActor } from '../scope/access.js';
import { organizationForActor } from '../scope/service.js';
import * as q from './queries.js';
import { requestDomain, routeRequest, type RoutedRequest } from './routing.js';

/**
 * Access requests (docs/dealer-identity.md, "Access requests"): a visitor without an account asks
 * for one; the userManagers the request is routed to (routing.ts) see it and approve it (an
 * invitation, made by Invitations with every rule of inviting) or decline it. Anyone may ask, so
 * asking tells nothing: the answer is the same 202 for every address, given before anything about
 * the address is looked up, and limited per address and per client like forgot-password e-mails.
 */

export interface AccessRequestInput {
  email_address: string;
  first_name: string;
  last_name: string;
  message?: string | null | undefined;
  language_code?: string | null | undefined;
}

export interface ApproveInput {
  organization_id?: string | null | undefined;
  rights?: Rights | null | undefined;
}

/** What a visitor typed, as PostgreSQL's text keeps it (it has no NUL character; nothing else is changed). */
function typed(text: string): string {
  return text.replace(/\0/g, '').trim();
}

/** Who asks, as the audit log names a visitor: a person with no user yet, the address they gave, the request's id. */
function visitor(email: string, requestId: string) {
  return { kind: 'person' as const, userId: null, email, requestId };
}

/**
 * Decide a request in the caller's transaction, or 409 when it is no longer pending. A decision is
 * made once and only its request e-mails (an invitation, or the decline): the request is read
 * under its row lock (AccessRequests.pendingForDecision), so concurrent decisions wait and then
 * see it decided, and the UPDATE changes only a pending request, so a decision that would find it
 * decided anyway rolls back (test/access-requests/concurrent-decisions.test.ts).
 */
async function decide(tx: Queryable, id: string, decision: Parameters<typeof q.markDecided>[2]): Promise<void> {
  if (!(await q.markDecided(tx, id, decision))) throw new AppError('access_request_not_pending');
}

export class AccessRequests {
  constructor(
    private readonly deps: {
      db: Database;
      config: Config;
      counters: CounterStore;
      mailer: Mailer;
      log: Logger;
      invitations: Invitations;
    },
  ) {}

  /**
   * POST /api/access-requests: the request counted (429 past a limit), then answered at once; who
   * hears of it is decided after the answer (receive), so that neither the status, the body nor
   * the time tells anything about the address.
   */
  async ask(input: AccessRequestInput, client: { ip: string; requestId: string; acceptLanguage?: string | undefined }): Promise<void> {
    const { db, config, counters, log } = this.deps;
    await throttleAccountAndIp({ db, config, counters }, 'access-request', input.email_address, client.ip, {
      perAccount: config.ACCESS_REQUEST_RATE_LIMIT_PER_EMAIL,
      perIp: config.ACCESS_REQUEST_RATE_LIMIT_PER_IP,
      windowSeconds: config.ACCESS_REQUEST_RATE_LIMIT_WINDOW_SECONDS,
    });
    setImmediate(() => {
      // the requester's language: the one they chose, else their browser's, else en
      const language = input.language_code ?? userLanguageFor(interfaceLanguageOfAcceptLanguage(client.acceptLanguage));
      this.receive(input, language, client.requestId).catch((err: unknown) => log.error({ err }, 'access request could not be handled'));
    });
  }

  /**
   * After the answer, in one transaction with the e-mails it writes (the mail outbox): an address
   * with an account gets a reminder of how to sign in; one with a pending request changes nothing
   * and hears nothing again; otherwise the request is stored and its userManagers e-mailed, or, when
   * nobody in the portal is to be asked, the sales contact is e-mailed (nothing stored: nobody could
   * see it).
   */
  private async receive(input: AccessRequestInput, language: string, requestId: string): Promise<void> {
    const { db, config, mailer } = this.deps;
    const email = input.email_address.trim();
    await db.transaction(async (tx) => {
      const account = await q.findAccount(tx, email);
      if (account) {
        const link = `${config.publicUrl}/login?lang=${encodeURIComponent(account.language_code)}`;
        const message = accessRequestReminderEmail({ language: account.language_code, firstName: account.first_name, link });
        await mailer.enqueue({ to: account.email, kind: 'access-request-reminder', ...message }, { tx });
        return;
      }
      if (await q.hasPendingRequest(tx, email)) return;
      const requester: RequesterDetails = {
        firstName: typed(input.first_name),
        lastName: typed(input.last_name),
        email,
        message: typed(input.message ?? '') || null,
      };
      const routed = await routeRequest(tx, email);
      if (!routed) {
        const message = accessRequestSalesEmail({
          language: DEFAULT_USER_LANGUAGE,
          requester,
          domain: requestDomain(email) ?? '',
          requestedLanguage: language,
        });
        await mailer.enqueue({ to: config.SALES_CONTACT_EMAIL, kind: 'access-request-sales', ...message }, { tx });
        return;
      }
      await this.store(tx, requester, language, routed, requestId);
    });
  }

  /**
   * Store the pending request, its audit entry and the e-mails to the managers asked (the mail
   * outbox), in the caller's transaction; nothing when the address got one meanwhile.
   */
  private async store(
    tx: Queryable,
    requester: RequesterDetails,
    language: string,
    routed: RoutedRequest,
    requestId: string,
  ): Promise<void> {
    const stored = await q.insertPendingRequest(tx, {
      email: requester.email,
      firstName: requester.firstName,
      lastName: requester.lastName,
      message: requester.message,
      languageCode: language,
      organizationId: routed.organization.id,
    });
    if (!stored) return;
    await recordChange(tx, visitor(requester.email, requestId), {
      organizationId: routed.organization.id,
      organizationPath: routed.organization.path,
      action: 'access_request.create',
      targetType: 'access_request',
      targetId: stored.id,
      after: {
        email_address: requester.email,
        first_name: requester.firstName,
        last_name: requester.lastName,
        language_code: language,
        organization_id: routed.organization.id,
      },
    });
    await this.tellManagers(requester, routed, tx);
  }

  /** E-mail each userManager asked, in their own language, with a link to the organization's page. */
  private async tellManagers(requester: RequesterDetails, routed: RoutedRequest, tx: Queryable): Promise<void> {
    const { config, mailer } = this.deps;
    const link = `${config.publicUrl}/manage-organization/${encodeURIComponent(routed.organization.id)}#identity`;
    for (const manager of routed.managers) {
      const message = accessRequestManagerEmail({
        language: manager.language_code,
        firstName: manager.first_name,
        requester,
        organizationName: routed.organization.name,
        link,
      });
      await mailer.enqueue({ to: manager.email, kind: 'access-request', ...message }, { tx });
    }
  }

  /** GET /api/organizations/{id}/access-requests: the pending requests of the organization's subtree, oldest first (userManager). */
  async list(actor: Actor, organizationId: string): Promise<AccessRequest[]> {
    const { db } = this.deps;
    const { org } = await organizationForActor(db, actor, organizationId, { role: 'user' });
    return (await q.listPendingInSubtree(db, org.path)).map(q.toAccessRequest);
  }

  /**
   * PUT /api/access-requests/{id}/approve: the invitation made by Invitations (every rule of
   * inviting: the approver's subtree, allowed domains, rights the approver holds, one pending
   * invitation per address; in the request's language) and the request APPROVED, in one
   * transaction, with the invitation's e-mail (the mail outbox). A refused invitation leaves the request
   * pending and is answered with its own error.
   */
  async approve(actor: Actor, id: string, input: ApproveInput): Promise<{ invitation_id: string }> {
    const { db, invitations } = this.deps;
    let made: MadeInvitation;
    try {
      made = await db.transaction(async (tx) => {
        const request = await this.pendingForDecision(tx, actor, id);
        const invitation = await invitations.make(tx, actor, input.organization_id ?? request.organization_id, {
          email_address: request.email,
          language_code: request.language_code,
          rights: input.rights ?? null,
        });
        await decide(tx, request.id, { state: 'APPROVED', decidedBy: actor.user?.id ?? null, invitationId: invitation.row.id });
        await invitations.mail(actor, invitation, tx);
        await recordChange(tx, actor, {
          organizationId: request.organization_id,
          organizationPath: request.organization_path,
          action: 'access_request.approve',
          targetType: 'access_request',
          targetId: request.id,
          before: { state: 'PENDING', email_address: request.email },
          after: { state: 'APPROVED', invitation_id: invitation.row.id, organization_id: invitation.row.organization_id },
        });
        return invitation;
      });
    } catch (err) {
      if (err instanceof RefusedChange) await auditRefusal(db, actor, err);
      if (pgErrorCode(err) === '23505') throw new AppError('invitation_already_pending');
      throw err;
    }
    return { invitation_id: made.row.id };
  }

  /** PUT /api/access-requests/{id}/decline: DECLINED, and the visitor told so in the request's language (in the same transaction). */
  async decline(actor: Actor, id: string): Promise<void> {
    const { db, mailer } = this.deps;
    await db.transaction(async (tx) => {
      const pending = await this.pendingForDecision(tx, actor, id);
      await decide(tx, pending.id, { state: 'DECLINED', decidedBy: actor.user?.id ?? null, invitationId: null });
      await recordChange(tx, actor, {
        organizationId: pending.organization_id,
        organizationPath: pending.organization_path,
        action: 'access_request.decline',
        targetType: 'access_request',
        targetId: pending.id,
        before: { state: 'PENDING', email_address: pending.email },
        after: { state: 'DECLINED' },
      });
      const message = accessRequestDeclinedEmail({ language: pending.language_code, firstName: pending.first_name });
      await mailer.enqueue({ to: pending.email, kind: 'access-request-declined', ...message }, { tx });
    });
  }

  /**
   * A request to decide, locked for the caller's transaction, in the order of checks of every
   * call (scope/access.ts): 403 without the userManager role, 404 unknown, 403 when it was routed
   * outside the actor's subtree, then 409 when it is no longer pending.
   */
  private async pendingForDecision(
    tx: Queryable,
    actor: Actor,
    id: string,
  ): Promise<q.AccessRequestRow & { organization_id: string; organization_path: string }> {
    const member: MemberActor = requireRole(actor, 'user');
    const request = await q.findRequest(tx, id, { forUpdate: true });
    if (!request) throw new AppError('not_found');
    const { organization_id, organization_path } = request;
    if (organization_id === null || organization_path === null) throw new AppError('forbidden');
    assertInSubtree(member, organization_path);
    if (request.state !== 'PENDING') throw new AppError('access_request_not_pending');
    return { ...request, organization_id, organization_path };
  }
}
