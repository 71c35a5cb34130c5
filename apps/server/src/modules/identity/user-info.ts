import { displayName, type UserInfo } from '@partner-portal/contracts';
import type { SessionUser } from '../../http/session.js';

/** The wire shape of GET /api/identity/user-info (docs/product.md, "People, organizations and invitations"). */
export function toUserInfo(user: SessionUser): UserInfo {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    fullName: displayName(user.firstName, user.lastName, user.email),
    languageCode: user.languageCode,
    organizationId: user.organizationId,
    organizationName: user.organizationName,
    organizationPath: user.organizationPath,
    userManager: user.userManager,
    organizationManager: user.organizationManager,
    externalIdentityProvider: user.externalIdentityProvider,
    isDeveloper: user.isDeveloper,
    manageUsersOrOrganizations: user.userManager || user.organizationManager,
    rights: user.rights,
    ...(user.mustChangePassword ? { mustChangePassword: true } : {}),
    // a support session (modules/support): the web app shows its banner with End
    ...(user.support
      ? {
          supportSession: {
            id: user.support.id,
            supporterEmail: user.support.supporterEmail,
            supporterName: user.support.supporterName,
            endsAt: user.support.endsAt,
          },
        }
      : {}),
  };
}

const userInfoBodies = new WeakMap<SessionUser, string>();

/**
 * toUserInfo as the JSON of the answer, made once per session user: a user served from the
 * session cache is the same object at every read, so the hottest read of the portal neither
 * builds nor checks nor serializes its answer again (docs/performance.md, "Authenticated reads").
 * The shape is the contract's by type (UserInfo), and checked from outside by the contract tests.
 */
export function userInfoBody(user: SessionUser): string {
  let body = userInfoBodies.get(user);
  if (body === undefined) {
    body = JSON.stringify(toUserInfo(user));
    userInfoBodies.set(user, body);
  }
  return body;
}
