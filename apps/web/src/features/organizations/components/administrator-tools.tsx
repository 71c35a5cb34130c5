import { lazy } from 'react';
import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import type { Organization, UserInfo } from '@partner-portal/contracts';
import { readSsoTest } from '@/features/identity/lib/sso-test';
import { integrationPanels } from '@/features/integrations/lib/integration-panels';
import { DeferredSection } from './deferred-section';

// each section's code, its translations and its first requests load when it comes near the
// viewport (./deferred-section.tsx, docs/decisions/022-login-and-manage-bundles.md, "Fourth round")
const IdentitySection = lazy(() => import('./identity-host').then((m) => ({ default: m.IdentityHost })));
const IntegrationsSection = lazy(() =>
  import('@/features/integrations/components/integrations-section').then((m) => ({ default: m.IntegrationsSection })),
);
const AccessReview = lazy(() => import('./access-review').then((m) => ({ default: m.AccessReview })));
const AuditTrail = lazy(() => import('./audit-trail').then((m) => ({ default: m.AuditTrail })));

/**
 * The administrator's tools below the selected organization (docs/decisions/018-the-administrators-day.md):
 * domains, sign-in connections and access requests (features/identity), service accounts, SCIM
 * tokens and webhooks (features/integrations), the access review for userManagers, the audit
 * trail for every manager. Each part is shown by the rights the server also checks; each has an
 * anchor (`#identity`, `#integrations`, `#access-review`, `#audit-trail`).
 */
export function AdministratorTools({ organization, user }: { organization: Organization; user: UserInfo }) {
  const { t } = useTranslation();
  const { search } = useLocation();
  const manager = user.userManager || user.organizationManager;
  if (!manager) return null;
  return (
    <Stack gap="xl" mt="xl">
      <DeferredSection
        anchor="identity"
        title={user.organizationManager ? t('identity.title') : t('identity.title_requests_only')}
        minHeight={user.organizationManager ? 260 : 160}
        // back from a test sign-in: the section shows its outcome
        now={readSsoTest(new URLSearchParams(search)) !== null}
      >
        <IdentitySection organization={organization} user={user} />
      </DeferredSection>
      {integrationPanels(user).length > 0 ? (
        <DeferredSection anchor="integrations" title={t('integrations.title')} minHeight={360}>
          <IntegrationsSection organization={organization} user={user} />
        </DeferredSection>
      ) : null}
      {user.userManager ? (
        <DeferredSection anchor="access-review" title={t('adm_access_review_title')} minHeight={110}>
          <AccessReview organizationId={organization.id} ownEmail={user.email} />
        </DeferredSection>
      ) : null}
      <DeferredSection anchor="audit-trail" title={t('adm_audit_title')} minHeight={40}>
        <AuditTrail organizationId={organization.id} />
      </DeferredSection>
    </Stack>
  );
}
