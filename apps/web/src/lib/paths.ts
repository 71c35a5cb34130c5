import { safeReturnPath as sameOriginReturnPath } from '@partner-portal/contracts';

/** One typed table of the web app's paths (docs/product.md, "Screens"). */
export const paths = {
  home: '/',
  login: '/login',
  loggedIn: '/loggedIn',
  logout: '/logout',
  profile: '/profile',
  changePassword: '/change-password',
  forgotPassword: '/forgot-password',
  forgotPasswordConfirmation: '/forgot-password-confirmation',
  resetPassword: '/reset-password',
  requestAccess: '/request-access',
  error: '/error',
  forbidden: '/forbidden',
  manageOrganization: (organizationId: string) => `/manage-organization/${encodeURIComponent(organizationId)}`,
  invitation: (invitationId: string) => `/invitation/${encodeURIComponent(invitationId)}`,
  externalInvitation: (invitationId: string) => `/invitation-external-identity/${encodeURIComponent(invitationId)}`,
} as const;

/**
 * A return path is only followed when it stays on this site, by the rule the server applies too
 * (contracts return-path.ts); the login and logout pages themselves are never returned to.
 */
export function safeReturnPath(value: string | null | undefined): string | null {
  const path = sameOriginReturnPath(value);
  if (!path || /^\/(login|logout|loggedIn)(\/|\?|#|$)/.test(path)) return null;
  return path;
}

/** The login address that brings the visitor back to where they were. */
export function loginPathFor(location: { pathname: string; search: string; hash?: string }): string {
  const returnPath = `${location.pathname}${location.search}${location.hash ?? ''}`;
  return `/login?returnPath=${encodeURIComponent(returnPath)}`;
}
