import { lazy, Suspense, useEffect, useState } from 'react';
import { Alert, Group, Loader, Stack, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconInfoCircle, IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { featuresFrom, type Invitation, type Organization, type OrganizationMember, type UserInfo } from '@partner-portal/contracts';
import { notifyError, notifySuccess } from '@/components/notify';
import { useFeatures } from '../api/get-features';
import { useResendInvitation } from '../api/resend-invitation';
import { useMemberSearch } from '../api/search-members';
import { useModal } from '@/lib/use-modal';
import type { OrganizationModal } from '../lib/organization-modal';
import { asksHeadingFocus } from '../lib/heading-focus';
import { rightsBeyondUser } from '../lib/member-rules';
import { AllowedDomains } from './allowed-domains';
import { OrganizationActions } from './organization-actions';
import { InvitationsTable, UsersTable } from './people-tables';
import { SecondFactorPolicyCard } from './second-factor-policy';
import { SupportAccessCard } from './support/support-access-card';

const NO_FEATURES = featuresFrom({});

// the dialogs (and their confirmations) load when the first one opens, then stay
const OrganizationModals = lazy(() => import('./organization-modals').then((m) => ({ default: m.OrganizationModals })));
const SupportMemberModal = lazy(() => import('./support/support-member-modal').then((m) => ({ default: m.SupportMemberModal })));

/** The selected organization: heading, actions by permission, search and the two tables (docs/product.md, "Screens"). */
export function OrganizationView({ organization, user }: { organization: Organization; user: UserInfo }) {
  const { t } = useTranslation();
  const features = useFeatures().data ?? NO_FEATURES;
  const { modal, open: setModal, close, fallback: heading, wanted: modalsWanted } = useModal<OrganizationModal>();
  const [supporting, setSupporting] = useState<OrganizationMember | null>(null);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const searching = search.trim().length > 0;
  const results = useMemberSearch(organization.id, debounced);
  const resend = useResendInvitation();
  const location = useLocation();
  const focusHeading = asksHeadingFocus(location.state);
  useEffect(() => {
    if (focusHeading) heading.current?.focus();
  }, [focusHeading, location.key, heading]);

  const canManageUsers = user.userManager;
  // a fresh install: the provider's organization with only its administrator and nothing below it
  const freshInstall =
    organization.parent_id === null &&
    organization.id === user.organizationId &&
    organization.sub_organizations.length === 0 &&
    organization.members.length <= 1 &&
    organization.pending_invitations.length === 0;

  const members = searching ? (results.data?.members ?? []) : organization.members;
  // the expired ones too, marked so, to be sent again
  const invitations = searching
    ? (results.data?.invitations ?? [])
    : [...organization.pending_invitations, ...(organization.expired_invitations ?? [])];

  const onResend = (invitation: Invitation) =>
    resend.mutate(invitation, {
      onSuccess: () => notifySuccess(t('org_invitation_resent')),
      onError: (error) => notifyError(error),
    });

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start" gap="sm">
        <Title order={1} size="h2" style={{ wordBreak: 'break-word' }} ref={heading} tabIndex={-1}>
          {organization.name}
        </Title>
        <OrganizationActions organization={organization} user={user} open={setModal} />
      </Group>

      <AllowedDomains domains={organization.allowed_email_domains} />

      {freshInstall ? (
        <Alert color="brand" variant="light" icon={<IconInfoCircle aria-hidden />} title={t('org_first_steps_title')}>
          {t('org_first_steps_text')}
        </Alert>
      ) : null}
      <SecondFactorPolicyCard organization={organization} user={user} />
      <SupportAccessCard organization={organization} user={user} />

      <TextInput
        type="search"
        label={t('org_search_label')}
        placeholder={t('org_search_placeholder')}
        leftSection={<IconSearch size={16} aria-hidden />}
        rightSection={searching && results.isFetching ? <Loader size="xs" role="status" aria-label={t('org_loading')} /> : null}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        maw={480}
      />

      {searching ? (
        <Title order={2} size="h3">
          {t('org_search_results')}
        </Title>
      ) : null}
      <UsersTable
        rows={members}
        searching={searching}
        canManage={canManageUsers}
        ownEmail={user.email}
        rightsBeyond={(member) => rightsBeyondUser(user, member)}
        onEditRights={(member) => setModal({ type: 'rights', member })}
        onResetFactors={(member) => setModal({ type: 'reset-factors', member })}
        onRemove={(member) => setModal({ type: 'remove', member })}
        onSignOut={(member) => setModal({ type: 'sign-out', member })}
        onSupport={setSupporting}
        // support sessions are for members of organizations below the supporter's own (the server's rule)
        supportRefusal={(member) => (member.organization_id === user.organizationId ? t('supportUi.below_only') : undefined)}
      />
      <InvitationsTable
        rows={invitations}
        searching={searching}
        canManage={canManageUsers}
        onResend={onResend}
        onRevoke={(invitation) => setModal({ type: 'revoke', invitation })}
      />

      {supporting ? (
        <Suspense fallback={null}>
          <SupportMemberModal member={supporting} onClose={() => setSupporting(null)} />
        </Suspense>
      ) : null}
      {modalsWanted ? (
        // while their code loads the page stays as it is; the dialog then opens as before
        <Suspense fallback={null}>
          <OrganizationModals modal={modal} organization={organization} user={user} features={features} close={close} />
        </Suspense>
      ) : null}
    </Stack>
  );
}
