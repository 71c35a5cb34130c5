import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { loginPathFor, paths } from '@/lib/paths';
import { useSessionIndicatorWatch, useSessionUser } from '@/lib/session';

/**
 * Routes that need login (docs/product.md, "Screens"). Not logged in: to /login?returnPath=<here>. The session is
 * checked every second (from the session indicator cookie, without a request); when it ends
 * while such a route is shown, the page reloads (and so lands on the login page with its way
 * back).
 */
/** whether this page has shown a logged-in user (a later logged-out answer then reloads) */
let sessionSeen = false;
const reload = () => window.location.reload();

export function RequireAuth() {
  const location = useLocation();
  const { data: user, isPending, isError } = useSessionUser({ watch: true });
  useEffect(() => {
    if (user) sessionSeen = true;
    else if (user === null && sessionSeen) reload();
  }, [user]);
  useSessionIndicatorWatch(Boolean(user), reload);
  if (isPending) return <PageLoader minHeight="60vh" />;
  if (isError) return <Outlet />;
  if (!user) return sessionSeen ? <PageLoader minHeight="60vh" /> : <Navigate to={loginPathFor(location)} replace />;
  // a generated password (first start) is replaced before anything else; the server refuses the rest
  if (user.mustChangePassword && location.pathname !== paths.changePassword) return <Navigate to={paths.changePassword} replace />;
  return <Outlet />;
}

/** Native-account routes: external identity users go to /forbidden. */
export function RequireNativeAccount() {
  const { data: user } = useSessionUser();
  if (user?.externalIdentityProvider) return <Navigate to={paths.forbidden} replace />;
  return <Outlet />;
}

/** Management routes: only for userManager or organizationManager. */
export function RequireManager() {
  const { data: user } = useSessionUser();
  if (user && !(user.userManager || user.organizationManager)) return <Navigate to={paths.forbidden} replace />;
  return <Outlet />;
}
