import { displayName, emptyRights, type Delegator, type Rights } from '@partner-portal/contracts';
import type { SessionUser, SupportOfSession } from './session-user.js';

/**
 * Who acts (docs/decisions/020-integrations.md, "One actor"): whatever credential a request
 * carries — a session cookie, a service account's bearer token, a directory's SCIM token — it
 * becomes one Actor (http/credentials.ts finds it), and a job's change has one too. Every actor has
 * a kind, the organization it acts on and the rights it acts with (ActingRights); the services
 * check it against the subtree through modules/scope, and the audit keeps its kind and id.
 */

/** The kinds of actor, as the audit log's actor_kind keeps them (migration 0077). */
export type ActorKind = 'person' | 'service_account' | 'directory' | 'job' | 'support' | 'setup_link';

/** The organization and rights an actor acts with: a signed-in person's membership, a service account's, a directory's token's. */
export interface ActingRights {
  organizationId: string | null;
  organizationPath: string | null;
  /** the organization is the provider's root organization */
  isProviderOrganization: boolean;
  rights: Rights;
  userManager: boolean;
  organizationManager: boolean;
  isDeveloper: boolean;
}

/** A service account as a request acts with it (http/bearer.ts): its organization as it is now, the rights it was given, no user. */
export interface ServiceAccountPrincipal extends ActingRights {
  id: string;
  name: string;
  clientId: string;
  organizationId: string;
  organizationPath: string;
}

/**
 * A directory as it acts through its SCIM token (modules/scim): the token's organization as it is
 * now and the rights its maker held when it was made (it changes no member who holds more).
 */
export interface DirectoryPrincipal extends ActingRights {
  /** the token's id */
  id: string;
  /** the token's name */
  name: string;
  organizationId: string;
  organizationPath: string;
  organizationName: string;
}

interface ActorOf<K extends ActorKind> extends ActingRights {
  kind: K;
  /** the id the audit log keeps as actor_id: the user's, the service account's, the SCIM token's; null for a job */
  id: string | null;
  /** the request the actor acts in (null for a job) */
  requestId: string | null;
}

/** A signed-in person. */
export interface PersonActor extends ActorOf<'person'> {
  id: string;
  user: SessionUser;
  /**
   * In a support session (modules/support): the supporter who acts as this person. The actor is
   * the member, authorised through scope/ as the member; the audit names both (kind 'support').
   */
  supportedBy?: SupportOfSession;
  serviceAccount?: undefined;
  directory?: undefined;
}

/** A service account through its bearer token: no user. */
export interface ServiceAccountActor extends ActorOf<'service_account'> {
  id: string;
  organizationId: string;
  organizationPath: string;
  user: null;
  serviceAccount: ServiceAccountPrincipal;
  directory?: undefined;
}

/** A dealer's directory through its SCIM token: no user. */
export interface DirectoryActor extends ActorOf<'directory'> {
  id: string;
  organizationId: string;
  organizationPath: string;
  user?: undefined;
  serviceAccount?: undefined;
  directory: DirectoryPrincipal;
}

/**
 * A dealer's IT person through a setup link's session (modules/setup-links): the link's
 * organization and subtree, its maker's rights as they are now, limited to the link's capabilities
 * (organizationManager only for domains, sso or audit_streams; userManager only for scim). Which
 * routes it reaches: route-kit.ts setupLinkMayCall.
 */
export interface SetupLinkPrincipal extends ActingRights {
  /** the link's id */
  id: string;
  /** the address the link was sent to, who acts through it */
  email: string;
  organizationId: string;
  organizationPath: string;
  organizationName: string;
  capabilities: readonly string[];
  /** the manager who made the link */
  makerId: string;
}

/** A dealer's IT person through a setup link: no user. */
export interface SetupLinkActor extends ActorOf<'setup_link'> {
  id: string;
  organizationId: string;
  organizationPath: string;
  user?: undefined;
  serviceAccount?: undefined;
  directory?: undefined;
  setupLink: SetupLinkPrincipal;
}

/** A background job of the portal itself (a domain's recheck, an expiry): acts on nothing through scope, named by nobody. */
export interface JobActor extends ActorOf<'job'> {
  id: null;
  user?: undefined;
  serviceAccount?: undefined;
  directory?: undefined;
}

export type Actor = PersonActor | ServiceAccountActor | DirectoryActor | JobActor | SetupLinkActor;

/** The acting fields of anything that holds them (without the rest of a SessionUser or principal). */
function actingOf(source: ActingRights): ActingRights {
  return {
    organizationId: source.organizationId,
    organizationPath: source.organizationPath,
    isProviderOrganization: source.isProviderOrganization,
    rights: source.rights,
    userManager: source.userManager,
    organizationManager: source.organizationManager,
    isDeveloper: source.isDeveloper,
  };
}

export function personActor(user: SessionUser, requestId: string | null): PersonActor {
  return { ...actingOf(user), kind: 'person', id: user.id, requestId, user, ...(user.support ? { supportedBy: user.support } : {}) };
}

/** A principal that acts on an organization of its own: a service account, a directory's token, a setup link. */
interface OrganizationPrincipal extends ActingRights {
  id: string;
  organizationId: string;
  organizationPath: string;
}

/** What every actor of an OrganizationPrincipal holds: its acting rights, its organization, its id as the actor's. */
function actingAsPrincipal(principal: OrganizationPrincipal, requestId: string | null) {
  return {
    ...actingOf(principal),
    organizationId: principal.organizationId,
    organizationPath: principal.organizationPath,
    id: principal.id,
    requestId,
  };
}

export function serviceAccountActor(account: ServiceAccountPrincipal, requestId: string | null): ServiceAccountActor {
  return { ...actingAsPrincipal(account, requestId), kind: 'service_account', user: null, serviceAccount: account };
}

export function directoryActor(directory: DirectoryPrincipal, requestId: string | null): DirectoryActor {
  return { ...actingAsPrincipal(directory, requestId), kind: 'directory', directory };
}

export function setupLinkActor(link: SetupLinkPrincipal, requestId: string | null): SetupLinkActor {
  return { ...actingAsPrincipal(link, requestId), kind: 'setup_link', setupLink: link };
}

/** The portal's own jobs: no organization, no rights. */
export const JOB_ACTOR: JobActor = {
  kind: 'job',
  id: null,
  requestId: null,
  organizationId: null,
  organizationPath: null,
  isProviderOrganization: false,
  rights: emptyRights(),
  userManager: false,
  organizationManager: false,
  isDeveloper: false,
};

/** The actor as the one who hands out rights (contracts delegation.ts): the rights it acts with. */
export function delegatorOf(actor: Actor): Delegator {
  return { rights: actor.rights, isDeveloper: actor.isDeveloper };
}

/** The user an actor is, when it is a person (the checks "not yourself" compare with it). */
export function userIdOf(actor: Actor): string | null {
  return actor.kind === 'person' ? actor.user.id : null;
}

/**
 * How an e-mail or a notice names the actor who did something: a person by their name, a service
 * account by its name, a directory by its organization's name (its token's name is the dealer's own
 * label, not meant for the people it provisions).
 */
export function senderNameOf(actor: Actor): string {
  switch (actor.kind) {
    case 'person':
      return displayName(actor.user.firstName, actor.user.lastName, actor.user.email);
    case 'service_account':
      return actor.serviceAccount.name;
    case 'directory':
      return actor.directory.organizationName;
    case 'setup_link':
      return actor.setupLink.email;
    case 'job':
      return '';
  }
}
