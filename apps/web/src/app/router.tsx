import { createBrowserRouter, type RouteObject } from 'react-router';
import { RequireAuth, RequireManager, RequireNativeAccount } from './guards';
import { RouteErrorBoundary } from './route-error-boundary';
import type { RouteHandle } from './layouts/app-layout';

/**
 * Every route of spec §2. Views are loaded on demand: the login route only pulls the shell, the
 * login layout and the login page.
 */
const page = <M,>(load: () => Promise<M>, pick: (m: M) => React.ComponentType) => () => load().then((m) => ({ Component: pick(m) }));

const publicRoutes: RouteObject[] = [
  { path: 'login', lazy: page(() => import('@/features/auth/routes/login-page'), (m) => m.LoginPage) },
  { path: 'loggedIn', lazy: page(() => import('@/features/auth/routes/logged-in-page'), (m) => m.LoggedInPage) },
  { path: 'logout', lazy: page(() => import('@/features/auth/routes/logout-page'), (m) => m.LogoutPage) },
  { path: 'forgot-password', lazy: page(() => import('@/features/auth/routes/forgot-password-page'), (m) => m.ForgotPasswordPage) },
  {
    path: 'forgot-password-confirmation',
    lazy: page(() => import('@/features/auth/routes/forgot-password-confirmation-page'), (m) => m.ForgotPasswordConfirmationPage),
  },
  { path: 'reset-password', lazy: page(() => import('@/features/auth/routes/reset-password-page'), (m) => m.ResetPasswordPage) },
  { path: 'error', lazy: page(() => import('@/features/errors/routes/error-page'), (m) => m.ErrorPage) },
  { path: 'invitation/:invitationId', lazy: page(() => import('@/features/invitations/routes/accept-invitation-page'), (m) => m.AcceptInvitationPage) },
  {
    path: 'invitation-external-identity/:invitationId',
    lazy: page(() => import('@/features/invitations/routes/accept-external-invitation-page'), (m) => m.AcceptExternalInvitationPage),
  },
];

const manageHandle: RouteHandle = { ownFooter: true };

const loggedInRoutes: RouteObject[] = [
  { index: true, lazy: page(() => import('@/features/home/routes/home-page'), (m) => m.HomePage) },
  { path: 'profile', lazy: page(() => import('@/features/account/routes/profile-page'), (m) => m.ProfilePage) },
  { path: 'forbidden', lazy: page(() => import('@/features/errors/routes/forbidden-page'), (m) => m.ForbiddenPage) },
  {
    Component: RequireNativeAccount,
    children: [{ path: 'change-password', lazy: page(() => import('@/features/account/routes/change-password-page'), (m) => m.ChangePasswordPage) }],
  },
  {
    Component: RequireManager,
    children: [
      {
        path: 'manage-organization/:organizationId',
        handle: manageHandle,
        lazy: page(() => import('@/features/organizations/routes/manage-organization-page'), (m) => m.ManageOrganizationPage),
      },
    ],
  },
];

export const routes: RouteObject[] = [
  {
    path: '/',
    ErrorBoundary: RouteErrorBoundary,
    children: [
      { lazy: page(() => import('./layouts/login-layout'), (m) => m.LoginLayout), children: publicRoutes },
      {
        Component: RequireAuth,
        children: [{ lazy: page(() => import('./layouts/app-layout'), (m) => m.AppLayout), children: loggedInRoutes }],
      },
      { path: '*', lazy: page(() => import('@/features/errors/routes/not-found-page'), (m) => m.NotFoundPage) },
    ],
  },
];

// A URL starting with #/ is rewritten to a normal path (spec §2), before the router reads it.
if (window.location.hash.startsWith('#/')) window.history.replaceState(null, '', window.location.hash.slice(1));

export const router = createBrowserRouter(routes);
