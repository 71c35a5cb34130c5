import { lazy, Suspense, use } from 'react';
import { Stack } from '@mantine/core';
import type { Organization, UserInfo } from '@partner-portal/contracts';
import { administrationLocales } from '../lib/locales';
import { AccessReview } from './access-review';
import { AuditTrail } from './audit-trail';
import { IdentitySection } from './identity/identity-section';

// service accounts, SCIM tokens and webhooks: few managers use them, so their code loads after the rest
const IntegrationsSection = lazy(() => import('./integrations/integrations-section').then((m) => ({ default: m.IntegrationsSection })));

/**
 * The administrator's tools below the selected organization (docs/decisions/018-the-administrators-day.md):
 * domains, sign-in connections and access requests (components/identity), service accounts, SCIM
 * tokens and webhooks (components/integrations), the access review for userManagers, the audit
 * trail for every manager. Each part is shown by the rights the server also checks.
 */
export function AdministratorTools({ organization, user }: { organization: Organization; user: UserInfo }) {
  use(administrationLocales());
  return (
    <Stack gap="xl" mt="xl">
      {user.userManager || user.organizationManager ? <IdentitySection organization={organization} user={user} /> : null}
      {user.userManager || user.organizationManager ? (
        <Suspense fallback={null}>
          <IntegrationsSection organization={organization} user={user} />
        </Suspense>
      ) : null}
      {user.userManager ? <AccessReview organizationId={organization.id} ownEmail={user.email} /> : null}
      {user.userManager || user.organizationManager ? <AuditTrail organizationId={organization.id} /> : null}
    </Stack>
  );
}
