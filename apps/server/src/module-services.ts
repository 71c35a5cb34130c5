import { AccessRequests } from './modules/access-requests/service.js';
import { AuditTrail } from './modules/audit/read.js';
import { ConnectionPolicies } from './modules/connection-policy/service.js';
import { SetupLinkOpening } from './modules/setup-links/opening.js';
import { SetupLinks } from './modules/setup-links/service.js';
import { SetupSteps } from './modules/setup-links/steps.js';
import { DeveloperExport } from './modules/developer/service.js';
import { createTxtLookup } from './modules/domains/dns.js';
import { DomainRecheck } from './modules/domains/recheck.js';
import { Domains } from './modules/domains/service.js';
import { createFactorServices, type FactorServices } from './modules/factors/services.js';
import { InvitationAcceptance } from './modules/invitations/acceptance.js';
import { BulkInvitations } from './modules/invitations/bulk.js';
import { Invitations } from './modules/invitations/service.js';
import { MemberExport } from './modules/members/export.js';
import { Members } from './modules/members/service.js';
import { OrganizationDetails } from './modules/organization-details/service.js';
import { Organizations } from './modules/organizations/service.js';
import { TreeCache } from './modules/organizations/tree-cache.js';
import { Portal } from './modules/portal/service.js';
import { ServiceAccounts } from './modules/service-accounts/service.js';
import { AccountAccess, SessionList } from './modules/sessions/service.js';
import { ScimTokens } from './modules/scim/tokens.js';
import { ScimUsers } from './modules/scim/users.js';
import { Accounts } from './modules/identity/account.js';
import { ExternalLogin } from './modules/identity/external-login.js';
import { Login } from './modules/identity/login.js';
import { UpstreamAccounts } from './modules/identity/upstream-link.js';
import { SsoProviders } from './modules/sso/providers.js';
import { SsoRouting } from './modules/sso/routing.js';
import { SsoConnections } from './modules/sso/service.js';
import { outboundFetch, outboundPolicy } from './http/outbound.js';
import { Webhooks } from './modules/webhooks/service.js';
import { SupportSessions } from './modules/support/service.js';
import { AuditStreams } from './modules/audit-streams/service.js';
import type { Oidc } from './oidc/runtime.js';
import type { Services } from './services.js';

/**
 * The modules' services, each built once per app (docs/decisions/011-one-service-shape.md): buildApp
 * (app.ts) makes them after the OpenID provider and hands each route plugin the ones it uses.
 */
export interface ModuleServices {
  access: AccountAccess;
  /** the account's password and profile (modules/identity/account.ts) */
  accounts: Accounts;
  /** the login's steps (modules/identity/login.ts) */
  login: Login;
  factors: FactorServices;
  sessionList: SessionList;
  auditTrail: AuditTrail;
  organizations: Organizations;
  organizationDetails: OrganizationDetails;
  members: Members;
  memberExport: MemberExport;
  portal: Portal;
  developerExport: DeveloperExport;
  invitations: Invitations;
  invitationAcceptance: InvitationAcceptance;
  bulkInvitations: BulkInvitations;
  accessRequests: AccessRequests;
  domains: Domains;
  /** the hourly re-verification of verified domains (jobs.ts) */
  domainRecheck: DomainRecheck;
  serviceAccounts: ServiceAccounts;
  scimTokens: ScimTokens;
  scimUsers: ScimUsers;
  ssoRouting: SsoRouting;
  ssoConnections: SsoConnections;
  externalLogin: ExternalLogin;
  webhooks: Webhooks;
  /** support access and support sessions (modules/support) */
  support: SupportSessions;
  auditStreams: AuditStreams;
  connectionPolicies: ConnectionPolicies;
  setupLinks: SetupLinks;
  setupLinkOpening: SetupLinkOpening;
}

export function createModuleServices(services: Services, oidc: Oidc): ModuleServices {
  const { db, config, log, mailer, sessions, metrics, counters, secrets } = services;
  const access = new AccountAccess({ log, oidc });
  const treeCache = new TreeCache((hit) => metrics.cacheLookup('organization_tree', hit));
  const members = new Members({ db, sessions, access });
  const dns = createTxtLookup(config);
  const domainRecheck = new DomainRecheck({ db, dns, mailer, config, log });
  // single sign-on: where an address signs in, and the relying party of every connection
  const ssoRouting = new SsoRouting({ db, config, cache: services.ssoCache });
  const ssoProviders = new SsoProviders({
    db,
    config,
    secrets,
    fetch: outboundFetch(outboundPolicy(config)),
    external: oidc.upstream,
  });
  const invitations = new Invitations({ db, config, mailer, routing: ssoRouting });
  const invitationAcceptance = new InvitationAcceptance({ db, routing: ssoRouting });
  const factors = createFactorServices({ services, oidc, access });
  const setupSteps = new SetupSteps({ mailer, config });
  return {
    access,
    accounts: new Accounts({ db, config, log, mailer, counters, access, routing: ssoRouting }),
    login: new Login({ db, config, log, metrics, counters, oidc, routing: ssoRouting }),
    factors,
    sessionList: new SessionList({ db, access }),
    auditTrail: new AuditTrail({ db }),
    organizations: new Organizations({ db, treeCache }),
    organizationDetails: new OrganizationDetails({ db }),
    members,
    memberExport: new MemberExport({ db }),
    portal: new Portal({ db, config }),
    developerExport: new DeveloperExport({ db }),
    invitations,
    invitationAcceptance,
    bulkInvitations: new BulkInvitations({ db, log, invitations, members }),
    accessRequests: new AccessRequests({ db, config, counters, mailer, log, invitations }),
    domains: new Domains({ db, dns, recheck: domainRecheck, setupSteps }),
    domainRecheck,
    serviceAccounts: new ServiceAccounts({ db }),
    scimTokens: new ScimTokens({ db, setupSteps }),
    scimUsers: new ScimUsers({ db, log, config, access, invitations, members, routing: ssoRouting }),
    ssoRouting,
    ssoConnections: new SsoConnections({
      db,
      config,
      log,
      mailer,
      secrets,
      providers: ssoProviders,
      routing: ssoRouting,
      setupSteps,
    }),
    externalLogin: new ExternalLogin({
      db,
      log,
      oidc,
      providers: ssoProviders,
      routing: ssoRouting,
      accounts: new UpstreamAccounts({ db, routing: ssoRouting, invitations: invitationAcceptance }),
      secondStep: factors.secondStep,
    }),
    webhooks: new Webhooks({ db, config, keyEncryption: secrets.keyEncryption }),
    support: new SupportSessions({ db, sessions, mailer, publicUrl: config.publicUrl }),
    auditStreams: new AuditStreams({ db, config, keyEncryption: secrets.keyEncryption }),
    connectionPolicies: new ConnectionPolicies({ db }),
    setupLinks: new SetupLinks({ db, config, mailer }),
    setupLinkOpening: new SetupLinkOpening({ db, config, mailer, counters }),
  };
}
