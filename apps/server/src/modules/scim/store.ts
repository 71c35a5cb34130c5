import { applyRightsRules, canManageMember, emptyRights, rightsNotHeld, toRights, uuidSchema } from '@partner-portal/contracts';
import type { Config } from '../../config.js';
import type { Queryable } from '../../db/client.js';
import { audit, RefusedChange, type AuditChange } from '../audit/service.js';
import type { Invitations } from '../invitations/service.js';
import * as invitationQueries from '../invitations/queries.js';
import { deactivateMember, reactivateMember, rootKeepsActiveUserManager } from '../members/activation.js';
import { deleteUser } from '../members/queries.js';
import { rightsContextFor } from '../members/rights-context.js';
import { lockIfRootMember } from '../members/service.js';
import { isPathInSubtree } from '../scope/access.js';
import { findOrganizationById, type OrganizationRow } from '../scope/queries.js';
import type { AccountAccess, BackchannelNotice } from '../sessions/service.js';
import * as q from './queries.js';
import { fromScimUser, toScimUser, versionOf } from './representation.js';
import { scimError, type ScimObject, type SCIMMY, type UserStore } from './scimmy.js';
import { addressOf, assertAddressAllowed, claimAddress, signInRoute } from './sign-in.js';
import { delegatorOf, type DirectoryActor } from '../../http/actor.js';
import { memberEventData, recordEvent, recordMemberEvent } from '../webhooks/outbox.js';

/**
 * The members of a token's subtree as SCIM Users, in one request's transaction (users.ts runs it):
 * read, create, replace (PUT, and PATCH after scimmy applied its operations to the read resource),
 * delete. The rules: docs/integrations.md, "SCIM 2.0". A change of a member is the token's only
 * when it holds every right the member holds (delegation, like a userManager's); what must happen
 * once the change has committed (back-channel logout) goes to `afterCommit`; invitation e-mails
 * are written to the mail outbox in the transaction itself.
 */

export interface StoreDeps {
  config: Config;
  access: AccountAccess;
  invitations: Invitations;
}

export class MemberStore implements UserStore {
  private readonly notices: BackchannelNotice[] = [];

  constructor(
    private readonly deps: StoreDeps,
    private readonly tx: Queryable,
    private readonly actor: DirectoryActor,
    /** lock what it reads (a change's transaction) */
    private readonly locking: boolean,
    private readonly afterCommit: (() => Promise<void>)[],
  ) {}

  /** A member of the subtree, locked when changing (the root organization's member lock first, as every change of a member takes it). */
  private async load(id: string): Promise<q.ScimUserRow> {
    if (uuidSchema.safeParse(id).success) {
      if (this.locking) await lockIfRootMember(this.tx, id);
      const row = await q.findScimUser(this.tx, this.actor.organizationPath, id, this.locking);
      if (row) return row;
    }
    throw scimError(404, null, `Resource ${id} not found`);
  }

  async read(id: string): Promise<ScimObject> {
    return toScimUser(await this.load(id), this.deps.config.publicUrl);
  }

  /** 412 unless the member's version is `expected` (If-Match; `*` matches any). */
  async checkVersion(id: string, expected: string): Promise<void> {
    const row = await this.load(id);
    const tags = expected.split(',').map((tag) => tag.trim());
    if (!tags.includes('*') && !tags.includes(versionOf(row))) throw scimError(412, null, 'The resource has changed (If-Match)');
  }

  async write(id: string | undefined, instance: SCIMMY.Schemas.User): Promise<ScimObject> {
    return id === undefined ? this.create(instance) : this.replace(id, instance);
  }

  /** The organization a directory names, of the token's subtree (400 invalidValue otherwise, unknown or not). */
  private async organization(id: string): Promise<OrganizationRow> {
    const org = uuidSchema.safeParse(id).success ? await findOrganizationById(this.tx, id) : null;
    if (!org || !isPathInSubtree(this.actor.organizationPath, org.path))
      throw scimError(400, 'invalidValue', `organizationId ${id} is no organization of this token's subtree`);
    return org;
  }

  private get who() {
    return { actor: this.actor, subtreePath: this.actor.organizationPath };
  }

  /** An invitation to choose a password, for a member who has no way to sign in; its e-mail leaves once committed (the mail outbox). */
  private async invite(member: { id: string; organizationId: string; organizationPath: string; email: string; languageCode: string }) {
    const { invitations } = this.deps;
    const made = await invitations.makeForMember(this.tx, this.who.actor, member);
    await invitations.mailFrom(made, this.actor.directory.organizationName, this.tx);
  }

  private async revokeInvitationOf(row: q.ScimUserRow): Promise<void> {
    const pending = await invitationQueries.pendingInvitationOfMember(this.tx, row.id);
    if (pending) await this.deps.invitations.revokeIn(this.tx, this.who.actor, pending);
  }

  /** Back-channel logouts to send once the change has committed. */
  private notify(notices: BackchannelNotice[]): void {
    if (this.notices.length === 0 && notices.length) this.afterCommit.push(() => this.deps.access.notify(this.notices));
    this.notices.push(...notices);
  }

  /** 403 (audited) unless the token holds every right of the member. */
  private assertMayChange(row: q.ScimUserRow, change: AuditChange): void {
    const rights = toRights(row.rights);
    if (canManageMember(delegatorOf(this.actor), rights)) return;
    const missing = rightsNotHeld(delegatorOf(this.actor), rights);
    throw new RefusedChange('cannot_manage_member_with_more_rights', change, { messages: missing, params: { rights: missing.join(', ') } });
  }

  /** 409 (audited) when the member is the root organization's last active member who manages users. */
  private async assertRootKeepsManager(row: q.ScimUserRow, change: AuditChange): Promise<void> {
    if (!(await rootKeepsActiveUserManager(this.tx, row))) throw new RefusedChange('last_root_user_manager', change);
  }

  private async create(instance: SCIMMY.Schemas.User): Promise<ScimObject> {
    const { tx } = this;
    const input = fromScimUser(instance);
    const email = addressOf(input, null);
    const org = await this.organization(input.organizationId ?? this.actor.organizationId);
    await claimAddress(tx, this.deps.invitations, this.who, org, email);
    const externalIdp = await signInRoute(tx, this.deps.config, email, org.path);
    const active = input.active ?? true;
    const languageCode = input.language ?? 'en';
    const id = await q.insertMember(tx, {
      email,
      firstName: input.givenName,
      lastName: input.familyName,
      languageCode,
      externalIdp,
      externalId: input.externalId,
      deactivated: !active,
      organizationId: org.id,
      organizationPath: org.path,
      rights: emptyRights(),
    });
    const signIn = externalIdp ? 'single_sign_on' : active ? 'invitation' : 'none';
    await audit(tx, this.who.actor, {
      organizationId: org.id,
      organizationPath: org.path,
      action: 'member.provision',
      targetType: 'member',
      targetId: id,
      after: { email_address: email, organization_id: org.id, external_id: input.externalId, active, sign_in: signIn },
    });
    await recordEvent(tx, {
      type: 'member.created',
      organization: { id: org.id, path: org.path },
      data: {
        ...memberEventData({
          membership_id: id,
          user_id: (await q.userIdOfMember(tx, id))!,
          email,
          first_name: input.givenName ?? '',
          last_name: input.familyName ?? '',
          language_code: languageCode,
          rights: emptyRights(),
        }),
        source: 'scim',
      },
    });
    if (signIn === 'invitation') await this.invite({ id, organizationId: org.id, organizationPath: org.path, email, languageCode });
    return this.read(id);
  }

  private async replace(id: string, instance: SCIMMY.Schemas.User): Promise<ScimObject> {
    const { tx, deps } = this;
    const row = await this.load(id);
    const input = fromScimUser(instance);
    const account = {
      email: addressOf(input, row.email),
      firstName: input.givenName,
      lastName: input.familyName,
      languageCode: input.language ?? row.language_code,
      externalId: input.externalId,
    };
    const target =
      input.organizationId && input.organizationId !== row.organization_id ? await this.organization(input.organizationId) : null;
    const wasActive = row.deactivated_at === null;
    const active = input.active ?? wasActive;
    const stored = {
      ...{ email_address: row.email, first_name: row.first_name, last_name: row.last_name, language_code: row.language_code },
      ...{ external_id: row.scim_external_id, organization_id: row.organization_id },
    };
    const wanted = {
      ...{ email_address: account.email, first_name: account.firstName, last_name: account.lastName, language_code: account.languageCode },
      ...{ external_id: account.externalId, organization_id: target?.id ?? row.organization_id },
    };
    const changed = (Object.keys(stored) as (keyof typeof stored)[]).filter((key) => stored[key] !== wanted[key]);
    if (changed.length === 0 && active === wasActive) return this.read(id);

    const change: AuditChange = {
      organizationId: row.organization_id,
      organizationPath: row.organization_path,
      action: changed.length ? 'member.update' : active ? 'member.reactivate' : 'member.deactivate',
      targetType: 'member',
      targetId: row.id,
      ...(changed.length
        ? {
            // the member's address always, so that the entry names whom it is about (changed or not)
            before: { email_address: stored.email_address, ...Object.fromEntries(changed.map((key) => [key, stored[key]])) },
            after: { email_address: wanted.email_address, ...Object.fromEntries(changed.map((key) => [key, wanted[key]])) },
          }
        : { before: { email_address: row.email, active: wasActive }, after: { active } }),
    };
    this.assertMayChange(row, change);
    if (changed.length) {
      const org = target ?? { id: row.organization_id, name: row.organization_name, path: row.organization_path };
      const addressChanged = account.email !== row.email;
      if (addressChanged) await claimAddress(tx, deps.invitations, this.who, org, account.email);
      else if (target) await assertAddressAllowed(tx, target, account.email);
      await q.updateAccount(tx, row, account);
      if (target) {
        await this.assertRootKeepsManager(row, change);
        // the rights the member keeps are those the new organization allows
        await q.moveMembership(tx, row, target, applyRightsRules(toRights(row.rights), await rightsContextFor(tx, target, true)));
      }
      if (addressChanged && !row.has_password && row.external_subject === null) await this.reroute(row, org, account, active);
      await audit(tx, this.who.actor, change);
      const named = changed.filter((key) => key === 'first_name' || key === 'last_name' || key === 'language_code');
      if (named.length) await recordMemberEvent(tx, 'member.updated', row.user_id, { changed: named });
      // sessions and tokens carry the address and the organization: they end (a deactivation below ends them anyway)
      if ((addressChanged || target) && active === wasActive) this.notify((await deps.access.revokeAll(tx, row.user_id)).notices);
    }
    if (active !== wasActive) await this.activate(row, active);
    return this.read(id);
  }

  /** A member who has not signed in yet and got a new address signs in as the new address does (a connection, or an invitation to it). */
  private async reroute(
    row: q.ScimUserRow,
    org: { id: string; path: string },
    account: { email: string; languageCode: string },
    active: boolean,
  ): Promise<void> {
    const route = await signInRoute(this.tx, this.deps.config, account.email, org.path);
    await this.revokeInvitationOf(row);
    if (route !== row.external_idp) await q.setSignInRoute(this.tx, row.user_id, route);
    if (route === null && active)
      await this.invite({
        id: row.id,
        organizationId: org.id,
        organizationPath: org.path,
        email: account.email,
        languageCode: account.languageCode,
      });
  }

  /** Deactivate (access ends at once, a pending invitation is revoked) or reactivate (a member without a way in is invited again). */
  private async activate(row: q.ScimUserRow, active: boolean): Promise<void> {
    const { tx, deps } = this;
    // as it is now, after a change of address or organization in the same request
    const now = (await q.findScimUser(tx, this.actor.organizationPath, row.id))!;
    const change: AuditChange = {
      organizationId: now.organization_id,
      organizationPath: now.organization_path,
      action: active ? 'member.reactivate' : 'member.deactivate',
      targetType: 'member',
      targetId: row.id,
      before: { email_address: now.email, active: !active },
      after: { active },
    };
    const member = { membershipId: row.id, userId: row.user_id };
    if (!active) {
      await this.assertRootKeepsManager(now, change);
      this.notify((await deactivateMember(tx, deps.access, member)) ?? []);
      await this.revokeInvitationOf(now);
    } else {
      await reactivateMember(tx, member);
      const noWayIn = !now.has_password && now.external_idp === null;
      if (noWayIn && !(await invitationQueries.pendingInvitationOfMember(tx, row.id)))
        await this.invite({
          id: row.id,
          organizationId: now.organization_id,
          organizationPath: now.organization_path,
          email: now.email,
          languageCode: now.language_code,
        });
    }
    await audit(tx, this.who.actor, change);
  }

  /** DELETE: the member is removed (their account, sessions and tokens end), as a userManager removes one. */
  async remove(id: string): Promise<void> {
    const { tx, deps } = this;
    const row = await this.load(id);
    const change: AuditChange = {
      organizationId: row.organization_id,
      organizationPath: row.organization_path,
      action: 'member.remove',
      targetType: 'member',
      targetId: row.id,
      before: { email_address: row.email, user_id: row.user_id, rights: toRights(row.rights) },
    };
    this.assertMayChange(row, change);
    await this.assertRootKeepsManager(row, change);
    this.notify((await deps.access.revokeAll(tx, row.user_id)).notices);
    await deleteUser(tx, row.user_id);
    await audit(tx, this.who.actor, change);
    await recordEvent(tx, {
      type: 'member.removed',
      organization: { id: row.organization_id, path: row.organization_path },
      data: { member_id: row.id, user_id: row.user_id, email_address: row.email },
    });
  }
}
