import { applyRightsRules, emptyRights, toRights, uuidSchema } from '@partner-portal/contracts';
import type { Config } from '../../config.js';
import type { Queryable } from '../../db/client.js';
import type { DirectoryActor } from '../../http/actor.js';
import { AppError } from '../../http/problem.js';
import type { AuditChange } from '../audit/service.js';
import { pendingInvitationOfMember, revokePendingInvitationOfMember } from '../invitations/member-invitations.js';
import type { Invitations } from '../invitations/service.js';
import { rightsContextFor } from '../members/rights-context.js';
import { assertCanManageMember, assertKeepsRootUserManager, lockIfRootMember, memberOfActor, type Members } from '../members/service.js';
import { organizationForActor, type OrganizationRow } from '../scope/service.js';
import type { AccountAccess } from '../sessions/service.js';
import type { SsoRouting } from '../sso/routing.js';
import { memberEvent, memberEventData, recordChange } from '../webhooks/changes.js';
import * as q from './queries.js';
import { fromScimUser, toScimUser, versionOf } from './representation.js';
import { scimError, type ScimObject, type SCIMMY, type UserStore } from './scimmy.js';
import { addressOf, assertAddressAllowed, claimAddress, signInRoute } from './sign-in.js';

/**
 * The members of a token's subtree as SCIM Users, in one request's transaction (users.ts runs it):
 * read, create, replace (PUT, and PATCH after scimmy applied its operations to the read resource),
 * delete. The rules: docs/integrations.md, "SCIM 2.0". The directory is an actor like any other
 * (http/actor.ts): it reaches a member and an organization through the scope checks every module
 * uses (members' memberOfActor, scope's organizationForActor), changes a member only when it holds
 * every right the member holds (members' assertCanManageMember), and removes, deactivates and
 * reactivates through the members' use cases (Members.removeIn, Members.setActiveIn). Back-channel
 * logouts and invitation e-mails are written to their outboxes in the transaction itself.
 */

export interface StoreDeps {
  config: Config;
  /** how a new member of an address signs in, as for an invitation (sso/routing.ts) */
  routing: SsoRouting;
  access: AccountAccess;
  invitations: Invitations;
  members: Members;
}

/** What a scope check refused (403 outside the subtree, 404 unknown) as null: SCIM answers it in its own words. */
async function unlessRefused<T>(work: Promise<T>): Promise<T | null> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof AppError && (err.status === 403 || err.status === 404)) return null;
    throw err;
  }
}

export class MemberStore implements UserStore {
  constructor(
    private readonly deps: StoreDeps,
    private readonly tx: Queryable,
    private readonly actor: DirectoryActor,
    /** lock what it reads (a change's transaction) */
    private readonly locking: boolean,
  ) {}

  /**
   * A member of the directory's subtree (memberOfActor, as for every actor; 404 otherwise), locked
   * when changing (the root organization's member lock first, as every change of a member takes it).
   */
  private async load(id: string): Promise<q.ScimUserRow> {
    if (uuidSchema.safeParse(id).success) {
      if (this.locking) await lockIfRootMember(this.tx, id);
      const member = await unlessRefused(memberOfActor(this.tx, this.actor, id, this.locking));
      const row = member && (await q.findScimUser(this.tx, member.organization_path, id, this.locking));
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

  /** The organization a directory names, of the token's subtree (organizationForActor; 400 invalidValue otherwise, unknown or not). */
  private async organization(id: string): Promise<OrganizationRow> {
    const found = uuidSchema.safeParse(id).success
      ? await unlessRefused(organizationForActor(this.tx, this.actor, id, { role: 'user' }))
      : null;
    if (!found) throw scimError(400, 'invalidValue', `organizationId ${id} is no organization of this token's subtree`);
    return found.org;
  }

  /** An invitation to choose a password, for a member who has no way to sign in; its e-mail leaves once committed (the mail outbox). */
  private async invite(member: { id: string; organizationId: string; organizationPath: string; email: string; languageCode: string }) {
    const { invitations } = this.deps;
    const made = await invitations.makeForMember(this.tx, this.actor, member);
    await invitations.mailFrom(made, this.actor.directory.organizationName, this.tx);
  }

  private async revokeInvitationOf(row: q.ScimUserRow): Promise<void> {
    await revokePendingInvitationOfMember(this.tx, this.deps.invitations, this.actor, row.id);
  }

  private async create(instance: SCIMMY.Schemas.User): Promise<ScimObject> {
    const { tx } = this;
    const input = fromScimUser(instance);
    const email = addressOf(input, null);
    const org = await this.organization(input.organizationId ?? this.actor.organizationId);
    await claimAddress(tx, this.deps.invitations, this.actor, org, email);
    const externalIdp = await signInRoute(tx, this.deps.routing, email, org.path);
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
    const userId = (await q.userIdOfMember(tx, id))!;
    await recordChange(tx, this.actor, {
      organizationId: org.id,
      organizationPath: org.path,
      action: 'member.provision',
      targetType: 'member',
      targetId: id,
      after: { email_address: email, organization_id: org.id, external_id: input.externalId, active, sign_in: signIn },
      events: [
        {
          type: 'member.created',
          organization: { id: org.id, path: org.path },
          data: {
            ...memberEventData({
              membership_id: id,
              user_id: userId,
              email,
              first_name: input.givenName ?? '',
              last_name: input.familyName ?? '',
              language_code: languageCode,
              rights: emptyRights(),
            }),
            source: 'scim',
          },
        },
      ],
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
    assertCanManageMember(this.actor, toRights(row.rights), change);
    if (changed.length) {
      const org = target ?? { id: row.organization_id, name: row.organization_name, path: row.organization_path };
      const addressChanged = account.email !== row.email;
      if (addressChanged) await claimAddress(tx, deps.invitations, this.actor, org, account.email);
      else if (target) await assertAddressAllowed(tx, target, account.email);
      await q.updateAccount(tx, row, account);
      if (target) {
        await assertKeepsRootUserManager(tx, row, null, change);
        // the rights the member keeps are those the new organization allows
        await q.moveMembership(tx, row, target, applyRightsRules(toRights(row.rights), await rightsContextFor(tx, target, true)));
      }
      if (addressChanged && !row.has_password && row.external_subject === null) await this.reroute(row, org, account, active);
      const named = changed.filter((key) => key === 'first_name' || key === 'last_name' || key === 'language_code');
      await recordChange(tx, this.actor, {
        ...change,
        events: named.length ? [await memberEvent(tx, 'member.updated', row.user_id, { changed: named })] : [],
      });
      // sessions and tokens carry the address and the organization: they end (a deactivation below ends them anyway)
      if ((addressChanged || target) && active === wasActive) await deps.access.revokeAll(tx, row.user_id);
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
    const route = await signInRoute(this.tx, this.deps.routing, account.email, org.path);
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

  /**
   * Deactivate (access ends at once, a pending invitation is revoked) or reactivate (a member
   * without a way in is invited again), through the members' use case (Members.setActiveIn).
   */
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
    await deps.members.setActiveIn(tx, this.actor, row.id, active, change);
    if (!active) await this.revokeInvitationOf(now);
    else {
      const noWayIn = !now.has_password && now.external_idp === null;
      if (noWayIn && !(await pendingInvitationOfMember(tx, row.id)))
        await this.invite({
          id: row.id,
          organizationId: now.organization_id,
          organizationPath: now.organization_path,
          email: now.email,
          languageCode: now.language_code,
        });
    }
  }

  /** DELETE: the member is removed as a userManager removes one (Members.removeIn: their account, sessions and tokens end). */
  async remove(id: string): Promise<void> {
    const row = await this.load(id);
    await this.deps.members.removeIn(this.tx, this.actor, row.organization_id, row.id);
  }
}
