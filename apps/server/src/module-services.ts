import type { Oidc } from './oidc/index.js';
import { createFactorServices, type FactorServices } from './modules/factors/services.js';
import { AccountAccess } from './modules/sessions/service.js';
import type { Services } from './services.js';

/** The modules' service objects, each built once per app (buildApp, app.ts) and handed to the route plugins that use them. */
export interface ModuleServices {
  access: AccountAccess;
  factors: FactorServices;
}

export function createModuleServices(services: Services, oidc: Oidc): ModuleServices {
  const access = new AccountAccess(services, oidc);
  return { access, factors: createFactorServices({ services, oidc, access }) };
}
