/**
 * The public pages sent as HTML, rendered at build time once per interface language
 * (docs/decisions/021-pre-rendered-public-pages.md). The build writes their list, with these
 * rules, to `dist/prerendered/pages.json`; the server sends a page's file for a request whose path
 * matches `path` and whose query carries every name of `needs` and none of `not`
 * (apps/server/src/modules/web/prerendered.ts). Any other request gets the application's
 * index.html, which renders in the browser.
 *
 * A page is rendered at `url`: what the browser renders first at a matching address must equal
 * it, or React throws the page away and renders it again. So `not` lists the parameters that
 * change the first render (an OpenID Connect ReturnUrl shows a spinner until the client is known),
 * and `needs` those without which the page renders something else (a reset link without its code
 * says the link has expired). Identifiers in the path are not shown before the page's data is
 * loaded, which happens after hydration.
 */
export interface PrerenderedPage {
  /** the files' name: `<name>.<language>.html` */
  name: string;
  /** the address rendered */
  url: string;
  /** the paths served, a regular expression (case-insensitive, as the router matches) */
  path: string;
  needs: string[];
  not: string[];
  /** the view's module, whose code the page preloads (the login page's comes with the entry) */
  view?: string;
}

export const PRERENDERED_PAGES: PrerenderedPage[] = [
  { name: 'login', url: '/login', path: '^/login/?$', needs: [], not: ['ReturnUrl', 'returnUrl', 'loginError', 'next_step'] },
  {
    name: 'forgot-password',
    url: '/forgot-password',
    path: '^/forgot-password/?$',
    needs: [],
    not: [],
    view: 'src/features/auth/routes/forgot-password-page.tsx',
  },
  {
    name: 'reset-password',
    url: '/reset-password?userId=0&code=0',
    path: '^/reset-password/?$',
    needs: ['userId', 'code'],
    not: [],
    view: 'src/features/auth/routes/reset-password-page.tsx',
  },
  {
    name: 'invitation',
    url: '/invitation/0?code=0',
    path: '^/invitation/[^/]+/?$',
    needs: [],
    not: [],
    view: 'src/features/invitations/routes/accept-invitation-page.tsx',
  },
  {
    name: 'invitation-external-identity',
    url: '/invitation-external-identity/0?code=0',
    path: '^/invitation-external-identity/[^/]+/?$',
    needs: [],
    not: [],
    view: 'src/features/invitations/routes/accept-external-invitation-page.tsx',
  },
];
