import { emailDomain, emailSchema, toAsciiDomain } from '@partner-portal/contracts';
import type { Queryable } from '../../db/client.js';
import type { Actor } from '../../http/actor.js';
import { domainsRefusing, makeWayForAddress } from '../invitations/member-invitations.js';
import type { Invitations } from '../invitations/service.js';
import type { SsoRouting } from '../sso/routing.js';
import type { ScimUserInput } from './representation.js';
import { scimError } from './scimmy.js';

/**
 * A provisioned member's address and how they sign in (docs/integrations.md, "SCIM 2.0"): the
 * address is unique in the portal and allowed by the organization; an address a single sign-on
 * connection serves signs in there; any other gets an invitation to choose a password.
 */

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * The member's address from a directory's userName and primary e-mail address, which are the same
 * address: a new member's must agree; for a member, the one that changed wins (a directory may
 * send an address change in two requests), both changed to different addresses is refused.
 */
export function addressOf(input: ScimUserInput, current: string | null): string {
  const { userName, email } = input;
  let address: string;
  if (current === null) {
    if (email !== null && !same(email, userName)) throw differentAddresses();
    address = userName;
  } else {
    const userNameChanged = !same(userName, current);
    const emailChanged = email !== null && !same(email, current);
    if (userNameChanged && emailChanged && !same(userName, email)) throw differentAddresses();
    address = userNameChanged ? userName : emailChanged ? email : current;
  }
  const parsed = emailSchema.safeParse(address);
  if (!parsed.success) throw scimError(400, 'invalidValue', 'userName must be an e-mail address');
  return parsed.data;
}

const differentAddresses = () =>
  scimError(400, 'invalidValue', 'userName and the primary e-mail address are the member’s one address: send the same address in both');

/**
 * How an account of this address in this organization signs in, as an invitation's would
 * (SsoRouting.forInvitation, the sign-in's own rule): the id of the nearest connection at or above
 * the organization that serves the address's domain (active, the domain verified), 'external' for
 * a domain of EXTERNAL_IDP_EMAIL_DOMAINS, else null (a password, chosen through an invitation).
 */
export async function signInRoute(tx: Queryable, routing: SsoRouting, email: string, organizationPath: string): Promise<string | null> {
  const domain = emailDomain(email);
  const ascii = toAsciiDomain(domain) ?? domain;
  const route = await routing.forInvitation(ascii === domain ? email : `${email.slice(0, -domain.length)}${ascii}`, organizationPath, tx);
  return route?.id ?? null;
}

/** 400 invalidValue unless the organization's allowed e-mail domains (none: any) admit the address, as for an invitation. */
export async function assertAddressAllowed(tx: Queryable, organization: { id: string; name: string }, email: string): Promise<void> {
  const allowed = await domainsRefusing(tx, organization.id, email);
  if (allowed)
    throw scimError(400, 'invalidValue', `${organization.name} allows addresses of ${allowed.map((d) => `@${d}`).join(', ')} only`);
}

/**
 * Make an address the member's in an organization: allowed by the organization (400), no other
 * account's (409 uniqueness), and held by no pending invitation: one the token's directory manages
 * is superseded (revoked, audited), one elsewhere refuses it (409 uniqueness); the invitations'
 * use case decides (invitations/member-invitations.ts).
 */
export async function claimAddress(
  tx: Queryable,
  invitations: Invitations,
  actor: Actor,
  organization: { id: string; name: string },
  email: string,
): Promise<void> {
  await assertAddressAllowed(tx, organization, email);
  const way = await makeWayForAddress(tx, invitations, actor, email);
  if (way === 'taken') throw scimError(409, 'uniqueness', 'Another account has this userName');
  if (way === 'held') throw scimError(409, 'uniqueness', 'A pending invitation of another organization holds this userName');
}
