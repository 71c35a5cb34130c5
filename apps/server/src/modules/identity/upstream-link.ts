import { emailDomain } from '@partner-portal/contracts';
import type { Database } from '../../db/client.js';
import { pgErrorCode } from '../../db/errors.js';
import { EXTERNAL_IDP_ID, type UpstreamIdentity } from '../../oidc/upstream.js';
import { isPathInSubtree } from '../scope/access.js';
import type { ConnectionInfo } from '../sso/providers.js';
import type { SsoRouting } from '../sso/routing.js';
import * as q from './queries.js';
import { memberEvent, recordChange } from '../webhooks/changes.js';

/**
 * The portal account of an identity an upstream provider signed in (docs/dealer-identity.md,
 * "Single sign-on per organization"; docs/product.md, "Flows and states").
 *
 * Through a connection, first the answer itself: the ID token (or userinfo) carries `email`,
 * verified, equal (case-insensitively) to the address given at the e-mail step when one was, and
 * of an address the connection serves (sso/routing.ts: the nearest active connection above the
 * member, or, for a manager's test, the tested one): else `sso_email_not_confirmed`. Then, in
 * order: the account linked to (connection, sub); an account of that address in the connection's
 * subtree, linked now (a native one loses its password; one of another connection moves here); a pending invitation of that address into the
 * subtree, accepted now (invitations/acceptance.ts, handed in as ConnectionInvitations); with
 * just_in_time, a new member without rights of the connection's organization (audited
 * 'sso_connection.member_joined'); else `sso_no_account`.
 *
 * The EXTERNAL_IDP_* provider keeps its rules: the account linked to its subject, or an invited
 * external account, or a native account of EXTERNAL_IDP_EMAIL_DOMAINS, linked at the first login;
 * else `external_login_failed`.
 */

/** Pending invitations as a sign-in through a connection accepts them (modules/invitations, given in by module-services.ts). */
export interface ConnectionInvitations {
  /** Whether a pending invitation of the address waits in the subtree at `organizationPath`. */
  pendingIn(email: string, organizationPath: string): Promise<boolean>;
  /** Accept it for a new account linked to the connection's subject: the account's id, or null when none waits (any more). */
  acceptThrough(input: {
    email: string;
    organizationPath: string;
    connectionId: string;
    subject: string;
    firstName: string;
    lastName: string;
    requestId: string;
  }): Promise<string | null>;
}

export type AccountRefusal = 'sso_email_not_confirmed' | 'sso_no_account' | 'external_login_failed' | 'account_deactivated';

/** Who signed in (null in a dry run: the account the sign-in would use exists or would be made), or why nobody. */
export type AccountOutcome = { ok: true; userId: string | null; email: string } | { ok: false; error: AccountRefusal };

const MAX_NAME = 100;
const name = (value: string | null): string => (value ?? '').trim().slice(0, MAX_NAME);

export class UpstreamAccounts {
  constructor(private readonly deps: { db: Database; routing: SsoRouting; invitations: ConnectionInvitations }) {}

  /**
   * The account of the identity, linked, accepted or made as the rules above say. `dryRun` (a
   * manager's test of the connection) checks the same and changes nothing.
   */
  async resolve(
    connection: ConnectionInfo,
    identity: UpstreamIdentity,
    options: { typedEmail: string | null; language: string; requestId: string; dryRun: boolean },
  ): Promise<AccountOutcome> {
    const outcome = await this.find(connection, identity, options);
    // a deactivated account (members/activation.ts: a directory's SCIM) signs in nowhere
    if (outcome.ok && outcome.userId && (await q.isDeactivated(this.deps.db, outcome.userId)))
      return { ok: false, error: 'account_deactivated' };
    return outcome;
  }

  private async find(
    connection: ConnectionInfo,
    identity: UpstreamIdentity,
    options: { typedEmail: string | null; language: string; requestId: string; dryRun: boolean },
  ): Promise<AccountOutcome> {
    if (connection.configured) return this.resolveConfigured(connection, identity, options.dryRun);
    const { db, routing, invitations } = this.deps;
    const email = identity.email;
    if (
      !email ||
      email.length > 254 ||
      !identity.emailVerified ||
      (options.typedEmail && options.typedEmail.toLowerCase() !== email.toLowerCase()) ||
      !(await routing.serves(connection.id, email, options.dryRun))
    ) {
      return { ok: false, error: 'sso_email_not_confirmed' };
    }
    const linked = await q.findUserByExternalSubject(db, connection.id, identity.subject);
    if (linked) return { ok: true, userId: options.dryRun ? null : linked.id, email };

    const account = await q.findUserWithOrganization(db, email);
    if (account) {
      const inSubtree = account.organization_path !== null && isPathInSubtree(connection.organizationPath, account.organization_path);
      // an account of another connection moves here when this one is now the nearest above it (routing.serves said so)
      const movedFrom = account.external_idp !== null && account.external_idp !== connection.id ? account.external_idp : null;
      const linkable = movedFrom ? movedFrom !== EXTERNAL_IDP_ID : account.external_subject === null;
      if (!inSubtree || !linkable) return { ok: false, error: 'sso_no_account' };
      if (options.dryRun) return { ok: true, userId: null, email };
      // an account invited through the connection, or a native one, which loses its password here
      const done = movedFrom
        ? await q.moveExternalSubject(db, account.id, movedFrom, connection.id, identity.subject)
        : await q.linkExternalSubject(db, account.id, connection.id, identity.subject, account.external_idp === null);
      return done ? { ok: true, userId: account.id, email } : { ok: false, error: 'sso_no_account' };
    }

    if (options.dryRun) {
      const joins = connection.justInTime || (await invitations.pendingIn(email, connection.organizationPath));
      return joins ? { ok: true, userId: null, email } : { ok: false, error: 'sso_no_account' };
    }
    const names = { firstName: name(identity.givenName), lastName: name(identity.familyName) };
    try {
      const accepted = await invitations.acceptThrough({
        email,
        organizationPath: connection.organizationPath,
        connectionId: connection.id,
        subject: identity.subject,
        requestId: options.requestId,
        ...names,
      });
      if (accepted) return { ok: true, userId: accepted, email };
      if (!connection.justInTime) return { ok: false, error: 'sso_no_account' };
      return { ok: true, userId: await this.join(connection, identity.subject, email, names, options), email };
    } catch (err) {
      // the same person signing in twice at once: the other sign-in made the account
      if (pgErrorCode(err) !== '23505') throw err;
      const made = await q.findUserByExternalSubject(db, connection.id, identity.subject);
      return made ? { ok: true, userId: made.id, email } : { ok: false, error: 'sso_no_account' };
    }
  }

  /** Just in time: a new member without rights of the connection's organization, audited. */
  private async join(
    connection: ConnectionInfo,
    subject: string,
    email: string,
    names: { firstName: string; lastName: string },
    options: { language: string; requestId: string },
  ): Promise<string> {
    return this.deps.db.transaction(async (tx) => {
      const { userId, membershipId } = await q.insertFederatedMember(tx, {
        email,
        ...names,
        languageCode: options.language,
        connectionId: connection.id,
        subject,
        organizationId: connection.organizationId,
        organizationPath: connection.organizationPath,
      });
      await recordChange(
        tx,
        { kind: 'person', userId, email, requestId: options.requestId },
        {
          organizationId: connection.organizationId,
          organizationPath: connection.organizationPath,
          action: 'sso_connection.member_joined',
          targetType: 'sso_connection',
          targetId: connection.id,
          after: { user_id: userId, membership_id: membershipId, email_address: email, connection_name: connection.name },
          events: [await memberEvent(tx, 'member.created', userId, { source: 'just_in_time' })],
        },
      );
      return userId;
    });
  }

  /** The EXTERNAL_IDP_* provider's rules (above). */
  private async resolveConfigured(connection: ConnectionInfo, identity: UpstreamIdentity, dryRun: boolean): Promise<AccountOutcome> {
    const { db } = this.deps;
    const failed = { ok: false, error: 'external_login_failed' } as const;
    const linked = await q.findUserByExternalSubject(db, EXTERNAL_IDP_ID, identity.subject);
    if (linked) return { ok: true, userId: dryRun ? null : linked.id, email: linked.email };
    if (!identity.email || !identity.emailVerified) return failed;
    const account = await q.findUserByEmail(db, identity.email);
    if (!account || account.external_subject !== null) return failed;
    // an invited external account; or an account of a domain that logs in upstream (EXTERNAL_IDP_EMAIL_DOMAINS)
    const adoptNative = account.external_idp === null && connection.domains.includes(emailDomain(account.email));
    if (account.external_idp !== EXTERNAL_IDP_ID && !adoptNative) return failed;
    if (dryRun) return { ok: true, userId: null, email: account.email };
    const done = await q.linkExternalSubject(db, account.id, EXTERNAL_IDP_ID, identity.subject, adoptNative);
    return done ? { ok: true, userId: account.id, email: account.email } : failed;
  }
}
