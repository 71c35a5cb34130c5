import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Oidc } from '../../oidc/runtime.js';
import type { SecondStep } from '../factors/second-step.js';
import type { AccountAccess } from '../sessions/service.js';
import { accountRoutes } from './account-routes.js';
import { externalLoginRoutes } from './external-login-routes.js';
import * as login from './login.js';
import { loginRoutes } from './login-routes.js';

/**
 * The Identity calls of docs/product.md, "Calls" under /api/identity: the login (login-routes.ts),
 * the account (account-routes.ts) and the login at the external identity provider
 * (external-login-routes.ts).
 */
export const identityRoutes: FastifyPluginAsyncZod<{ oidc: Oidc; access: AccountAccess; secondStep: SecondStep }> = async (
  app,
  { oidc, access, secondStep },
) => {
  void login.dummyPasswordHash();
  await app.register(loginRoutes, { oidc, secondStep });
  await app.register(accountRoutes, { oidc, access });
  await app.register(externalLoginRoutes, { oidc });
};
