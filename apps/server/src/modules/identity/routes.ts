import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Oidc } from '../../oidc/runtime.js';
import type { SecondStep } from '../factors/second-step.js';
import { accountRoutes } from './account-routes.js';
import type { SsoRouting } from '../sso/routing.js';
import type { ExternalLogin } from './external-login.js';
import { externalLoginRoutes } from './external-login-routes.js';
import type { Accounts } from './account.js';
import { dummyPasswordHash, type Login } from './login.js';
import { loginRoutes } from './login-routes.js';

/**
 * The Identity calls of docs/product.md, "Calls" under /api/identity: the login (login-routes.ts),
 * the account (account-routes.ts) and the login at the external identity provider
 * (external-login-routes.ts: a single sign-on connection's, or the EXTERNAL_IDP_* provider's).
 */
export const identityRoutes: FastifyPluginAsyncZod<{
  oidc: Oidc;
  accounts: Accounts;
  login: Login;
  secondStep: SecondStep;
  routing: SsoRouting;
  externalLogin: ExternalLogin;
}> = async (app, { oidc, accounts, login, secondStep, routing, externalLogin }) => {
  void dummyPasswordHash();
  // the login asks whether any connection exists; known before the first login (modules/sso/routing.ts)
  await routing.anyConnection();
  await app.register(loginRoutes, { login, secondStep });
  await app.register(accountRoutes, { accounts });
  await app.register(externalLoginRoutes, { oidc, externalLogin, secondStep });
};
