import type { Oidc } from '../../oidc/runtime.js';
import type { Services } from '../../services.js';
import { sendSecurityNotice, type SecurityNoticeSender } from '../mail/security-notices.js';
import type { AccountAccess } from '../sessions/service.js';
import { AuthenticatorApp } from './authenticator-app.js';
import { FactorChecks } from './checks.js';
import { MemberFactorReset } from './member-reset.js';
import { FactorOverview } from './overview.js';
import { Passkeys } from './passkeys.js';
import { FactorPolicy } from './policy.js';
import { RecentAuthentication } from './recent-authentication.js';
import { SecondStep } from './second-step.js';

/** The second factors' services (docs/second-factors.md), each built once per app (module-services.ts). */
export interface FactorServices {
  checks: FactorChecks;
  secondStep: SecondStep;
  recentAuthentication: RecentAuthentication;
  overview: FactorOverview;
  authenticatorApp: AuthenticatorApp;
  passkeys: Passkeys;
  memberReset: MemberFactorReset;
  policy: FactorPolicy;
}

export function createFactorServices(deps: { services: Services; oidc: Oidc; access: AccountAccess }): FactorServices {
  const { services, oidc, access } = deps;
  const { db, config, secrets } = services;
  const notify: SecurityNoticeSender = (userId, notice, tx) => sendSecurityNotice(services, userId, notice, undefined, tx);
  const checks = new FactorChecks({ db, config, counters: services.counters, metrics: services.metrics, secrets });
  const secondStep = new SecondStep({ db, oidc, checks });
  const recentAuthentication = new RecentAuthentication({ db, checks });
  const overview = new FactorOverview({ db });
  return {
    checks,
    secondStep,
    recentAuthentication,
    overview,
    authenticatorApp: new AuthenticatorApp({ db, secrets, checks, recentAuthentication, secondStep, overview, notify }),
    passkeys: new Passkeys({ db, config, checks, recentAuthentication, secondStep, notify }),
    memberReset: new MemberFactorReset({ db, notify }),
    policy: new FactorPolicy({ db, access }),
  };
}
