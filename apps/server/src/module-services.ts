import { AccessRequests } from './modules/access-requests/service.js';
import { AuditTrail } from './modules/audit/read.js';
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
import type { Oidc } from './oidc/runtime.js';
import type { Services } from './services.js';

/**
 * The modules' services, each built once per app (docs/decisions/011-one-service-shape.md): buildApp
 * (app.ts) makes them after the OpenID provider and hands each route plugin the ones it uses.
 */
export interface ModuleServices {
  access: AccountAccess;
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
}

export function createModuleServices(services: Services, oidc: Oidc): ModuleServices {
  const { db, config, log, mailer, sessions, metrics, counters } = services;
  const access = new AccountAccess({ log, oidc });
  const treeCache = new TreeCache((hit) => metrics.cacheLookup('organization_tree', hit));
  const members = new Members({ db, sessions, access });
  const invitations = new Invitations({ db, config, mailer });
  const dns = createTxtLookup(config);
  const domainRecheck = new DomainRecheck({ db, dns, mailer, config, log });
  return {
    access,
    factors: createFactorServices({ services, oidc, access }),
    sessionList: new SessionList({ db, access }),
    auditTrail: new AuditTrail({ db }),
    organizations: new Organizations({ db, treeCache }),
    organizationDetails: new OrganizationDetails({ db }),
    members,
    memberExport: new MemberExport({ db }),
    portal: new Portal({ db, config }),
    developerExport: new DeveloperExport({ db }),
    invitations,
    invitationAcceptance: new InvitationAcceptance({ db }),
    bulkInvitations: new BulkInvitations({ db, log, invitations, members }),
    accessRequests: new AccessRequests({ db, config, counters, mailer, log, invitations }),
    domains: new Domains({ db, dns, recheck: domainRecheck }),
    domainRecheck,
    serviceAccounts: new ServiceAccounts({ db }),
  };
}
