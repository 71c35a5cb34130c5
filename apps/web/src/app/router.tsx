import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { BrowserRouter, Route, Routes, useLocation } from 'react-router';
import * as loginPage from '@/features/auth/routes/login-page';
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

/** Modules that each export the view named by their key. */
type Loaders<K extends string> = { [Name in K]: () => Promise<Record<Name, ComponentType>> };

/**
 * Views loaded on demand, by the names their modules export them under; each can also be asked
 * for before it renders (`preloadFirstView`). Every view but the login page's comes with Mantine's
 * whole stylesheet (`./all-styles.ts`), inside Mantine's provider (`@/components/mantine.tsx`) and
 * the query client's (`./with-queries.tsx`); the login route renders no Mantine component, needs
 * only the few styles the entry carries (`./login-styles.ts`) and reads its answers without the
 * query client (`@/lib/answers.ts`).
 */
function lazyViews<K extends string>(loaders: Loaders<K>, fullApp = true): Record<K, View> {
  const out = {} as Record<K, View>;
  for (const name in loaders) {
    const load = loaders[name];
    let loading: Promise<{ default: ComponentType }> | undefined;
    const start = () =>
      (loading ??= fullApp
        ? Promise.all([load(), import('./with-queries'), import('@/components/mantine'), import('./all-styles')]).then(
            ([m, { withQueries }, { withMantine }]) => ({ default: withMantine(withQueries(m[name])) }),
          )
        : load().then((m) => ({ default: m[name] })));
    out[name] = Object.assign(lazy(start), { preload: start });
  }
  return out;
}

// The login page is where most visits start: it comes with the entry, so its code loads in
// parallel with the shell instead of after it (docs/performance.md).
const login = lazyViews({ LoginLayout: () => Promise.resolve(loginLayout), LoginPage: () => Promise.resolve(loginPage) }, false);
const view = lazyViews({
  RequireAuth: () => import('./guards'),
  RequireManager: () => import('./guards'),
  RequireNativeAccount: () => import('./guards'),
  AppLayout: () => import('./layouts/app-layout'),
  LoggedInPage: () => import('@/features/auth/routes/logged-in-page'),
  LogoutPage: () => import('@/features/auth/routes/logout-page'),
  ForgotPasswordPage: () => import('@/features/auth/routes/forgot-password-page'),
  ForgotPasswordConfirmationPage: () => import('@/features/auth/routes/forgot-password-confirmation-page'),
  ResetPasswordPage: () => import('@/features/auth/routes/reset-password-page'),
  RequestAccessPage: () => import('@/features/auth/routes/request-access-page'),
  ErrorPage: () => import('@/features/errors/routes/error-page'),
  AcceptInvitationPage: () => import('@/features/invitations/routes/accept-invitation-page'),
  AcceptExternalInvitationPage: () => import('@/features/invitations/routes/accept-external-invitation-page'),
  HomePage: () => import('@/features/home/routes/home-page'),
  ProfilePage: () => import('@/features/account/routes/profile-page'),
  ForbiddenPage: () => import('@/features/errors/routes/forbidden-page'),
  ChangePasswordPage: () => import('@/features/account/routes/change-password-page'),
  ManageOrganizationPage: () => import('@/features/organizations/routes/manage-organization-page'),
  NotFoundPage: () => import('@/features/errors/routes/not-found-page'),
  DevicePage: () => import('@/features/device/routes/device-page'),
  SetupPage: () => import('@/features/setup/routes/setup-page'),
});

/** The pages in the login layout, by path. */
const LOGIN_LAYOUT_PAGES: [string, View][] = [
  ['login', login.LoginPage],
  ['loggedIn', view.LoggedInPage],
  ['logout', view.LogoutPage],
  ['forgot-password', view.ForgotPasswordPage],
  ['forgot-password-confirmation', view.ForgotPasswordConfirmationPage],
  ['reset-password', view.ResetPasswordPage],
  ['request-access', view.RequestAccessPage],
  ['error', view.ErrorPage],
  ['invitation/:invitationId', view.AcceptInvitationPage],
  ['invitation-external-identity/:invitationId', view.AcceptExternalInvitationPage],
  // a dealer's IT person's setup page (features/setup): no portal account
  ['setup/:token', view.SetupPage],
];

/**
 * The views of the pages a visit most often starts on, by path, and of the pre-rendered pages
 * (src/prerender/pages.ts), which hydrate once their views are at hand.
 */
const FIRST_VIEWS: [RegExp, View[]][] = [
  [/^\/login\/?$/i, [login.LoginLayout, login.LoginPage]],
  [/^\/?$/, [view.RequireAuth, view.AppLayout, view.HomePage]],
  [/^\/manage-organization\/[^/]+\/?$/i, [view.RequireAuth, view.RequireManager, view.AppLayout, view.ManageOrganizationPage]],
  [/^\/forgot-password\/?$/i, [login.LoginLayout, view.ForgotPasswordPage]],
  [/^\/reset-password\/?$/i, [login.LoginLayout, view.ResetPasswordPage]],
  [/^\/invitation\/[^/]+\/?$/i, [login.LoginLayout, view.AcceptInvitationPage]],
  [/^\/invitation-external-identity\/[^/]+\/?$/i, [login.LoginLayout, view.AcceptExternalInvitationPage]],
];

/**
 * Starts loading the views of `pathname` at once, while the shell and the translations load,
 * instead of one after the other as each renders (a round trip each on a slow connection).
 * Resolves when they are loaded (or failed: the view shows its error when it renders).
 */
export async function preloadFirstView(pathname: string): Promise<void> {
  const views = FIRST_VIEWS.find(([path]) => path.test(pathname))?.[1] ?? [];
  await Promise.all(views.map((v) => v.preload().catch(() => undefined)));
}

/** The routes, under whichever router: the browser's, or the pre-render's static one (src/prerender/render.tsx). */
export function PortalRoutes() {
  const location = useLocation();
  return (
    // a failed view (e.g. a new release replaced its chunk) shows the error view until the path changes
    <RouteErrorBoundary resetKey={location.pathname}>
      <PageTitleAndFocus />
      <Loading>
        <Routes>
          <Route element={<login.LoginLayout />}>
            {LOGIN_LAYOUT_PAGES.map(([path, Page]) => (
              <Route key={path} path={path} element={<Page />} />
            ))}
          </Route>
          {/* device sign-in's verification page: after the sign-in, in the login layout */}
          <Route element={<view.RequireAuth />}>
            <Route element={<login.LoginLayout />}>
              <Route path="device" element={<view.DevicePage />} />
            </Route>
          </Route>
          <Route element={<view.RequireAuth />}>
            <Route element={<view.AppLayout />}>
              <Route index element={<view.HomePage />} />
              <Route path="profile" element={<view.ProfilePage />} />
              <Route path="forbidden" element={<view.ForbiddenPage />} />
              <Route element={<view.RequireNativeAccount />}>
                <Route path="change-password" element={<view.ChangePasswordPage />} />
              </Route>
              <Route element={<view.RequireManager />}>
                <Route path="manage-organization/:organizationId" element={<view.ManageOrganizationPage />} />
              </Route>
            </Route>
          </Route>
          <Route path="*" element={<view.NotFoundPage />} />
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
