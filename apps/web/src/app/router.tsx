import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { BrowserRouter, Route, Routes, useLocation } from 'react-router';
import * as loginPage from '@/features/auth/routes/login-page';
import { RequireAuth, RequireManager, RequireNativeAccount } from './guards';
import * as loginLayout from './layouts/login-layout';
import { RouteErrorBoundary } from './route-error-boundary';
import { Loading } from './routed-view';
import { PageTitleAndFocus } from './page-title';

/**
 * Every route of docs/product.md, "Screens". Views are loaded on demand (React.lazy): the login route only pulls the
 * shell, the login layout and the login page. The router runs in declarative mode: the portal
 * has no loaders or actions, and the data router would add ~17 KB gzipped to every route
 * (docs/decisions/006-web-bundle-budget.md).
 */
type View = LazyExoticComponent<ComponentType> & { preload: () => Promise<unknown> };

/**
 * A view loaded on demand, which can also be asked for before it renders (`preloadFirstView`).
 * Every view but the login page's comes with Mantine's whole stylesheet (`./all-styles.ts`); the
 * login page needs only the few styles the entry carries (`./login-styles.ts`).
 */
function lazyView<M>(load: () => Promise<M>, pick: (m: M) => ComponentType, { allStyles }: { allStyles: boolean }): View {
  let loading: Promise<{ default: ComponentType }> | undefined;
  const start = () =>
    (loading ??= (allStyles ? Promise.all([load(), import('./all-styles')]).then(([m]) => m) : load()).then((m) => ({ default: pick(m) })));
  return Object.assign(lazy(start), { preload: start });
}

/** A view by the name its module exports it under. */
type Named<K extends string> = Record<K, ComponentType>;
const loginView = <K extends string>(load: () => Promise<Named<K>>, name: K) => lazyView(load, (m) => m[name], { allStyles: false });
const view = <K extends string>(load: () => Promise<Named<K>>, name: K) => lazyView(load, (m) => m[name], { allStyles: true });

// The login page is where most visits start: it comes with the entry, so its code loads in
// parallel with the shell instead of after it (docs/performance.md).
const LoginLayout = loginView(() => Promise.resolve(loginLayout), 'LoginLayout');
const AppLayout = view(() => import('./layouts/app-layout'), 'AppLayout');

const LoginPage = loginView(() => Promise.resolve(loginPage), 'LoginPage');
const LoggedInPage = view(() => import('@/features/auth/routes/logged-in-page'), 'LoggedInPage');
const LogoutPage = view(() => import('@/features/auth/routes/logout-page'), 'LogoutPage');
const ForgotPasswordPage = view(() => import('@/features/auth/routes/forgot-password-page'), 'ForgotPasswordPage');
const ForgotPasswordConfirmationPage = view(
  () => import('@/features/auth/routes/forgot-password-confirmation-page'),
  'ForgotPasswordConfirmationPage',
);
const ResetPasswordPage = view(() => import('@/features/auth/routes/reset-password-page'), 'ResetPasswordPage');
const ErrorPage = view(() => import('@/features/errors/routes/error-page'), 'ErrorPage');
const AcceptInvitationPage = view(() => import('@/features/invitations/routes/accept-invitation-page'), 'AcceptInvitationPage');
const AcceptExternalInvitationPage = view(
  () => import('@/features/invitations/routes/accept-external-invitation-page'),
  'AcceptExternalInvitationPage',
);
const HomePage = view(() => import('@/features/home/routes/home-page'), 'HomePage');
const ProfilePage = view(() => import('@/features/account/routes/profile-page'), 'ProfilePage');
const ForbiddenPage = view(() => import('@/features/errors/routes/forbidden-page'), 'ForbiddenPage');
const ChangePasswordPage = view(() => import('@/features/account/routes/change-password-page'), 'ChangePasswordPage');
const ManageOrganizationPage = view(() => import('@/features/organizations/routes/manage-organization-page'), 'ManageOrganizationPage');
const NotFoundPage = view(() => import('@/features/errors/routes/not-found-page'), 'NotFoundPage');

/** The views of the pages a visit most often starts on, by path. */
const FIRST_VIEWS: [RegExp, View[]][] = [
  [/^\/login\/?$/i, [LoginLayout, LoginPage]],
  [/^\/?$/, [AppLayout, HomePage]],
  [/^\/manage-organization\/[^/]+\/?$/i, [AppLayout, ManageOrganizationPage]],
];

/**
 * Starts loading the views of `pathname` at once, while the shell and the translations load,
 * instead of one after the other as each renders (a round trip each on a slow connection).
 */
export function preloadFirstView(pathname: string): void {
  for (const [path, views] of FIRST_VIEWS) if (path.test(pathname)) for (const v of views) void v.preload().catch(() => undefined);
}

function PortalRoutes() {
  const location = useLocation();
  return (
    // a failed view (e.g. a new release replaced its chunk) shows the error view until the path changes
    <RouteErrorBoundary resetKey={location.pathname}>
      <PageTitleAndFocus />
      <Loading>
        <Routes>
          <Route element={<LoginLayout />}>
            <Route path="login" element={<LoginPage />} />
            <Route path="loggedIn" element={<LoggedInPage />} />
            <Route path="logout" element={<LogoutPage />} />
            <Route path="forgot-password" element={<ForgotPasswordPage />} />
            <Route path="forgot-password-confirmation" element={<ForgotPasswordConfirmationPage />} />
            <Route path="reset-password" element={<ResetPasswordPage />} />
            <Route path="error" element={<ErrorPage />} />
            <Route path="invitation/:invitationId" element={<AcceptInvitationPage />} />
            <Route path="invitation-external-identity/:invitationId" element={<AcceptExternalInvitationPage />} />
          </Route>
          <Route element={<RequireAuth />}>
            <Route element={<AppLayout />}>
              <Route index element={<HomePage />} />
              <Route path="profile" element={<ProfilePage />} />
              <Route path="forbidden" element={<ForbiddenPage />} />
              <Route element={<RequireNativeAccount />}>
                <Route path="change-password" element={<ChangePasswordPage />} />
              </Route>
              <Route element={<RequireManager />}>
                <Route path="manage-organization/:organizationId" element={<ManageOrganizationPage />} />
              </Route>
            </Route>
          </Route>
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </Loading>
    </RouteErrorBoundary>
  );
}

export function PortalRouter() {
  return (
    <BrowserRouter>
      <PortalRoutes />
    </BrowserRouter>
  );
}
