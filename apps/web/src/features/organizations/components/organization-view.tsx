import { lazy, Suspense, useState } from 'react';
import { Alert, Button, Group, Loader, Menu, Stack, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  IconDownload,
  IconFileUpload,
  IconInfoCircle,
  IconPencil,
  IconPlus,
  IconSearch,
  IconTrash,
  IconUserPlus,
} from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { featuresFrom, type Invitation, type Organization, type UserInfo } from '@partner-portal/contracts';
import { useMemberSearch } from '../api/search-members';
import { useDeleteOrganization } from '../api/delete-organization';
import { useRemoveMember } from '../api/remove-member';
import { useRevokeInvitation } from '../api/revoke-invitation';
import { useResendInvitation } from '../api/resend-invitation';
import { useFeatures } from '../api/get-features';
import { downloadMembersExport } from '../api/export-members';
import { useModal } from '../hooks/use-modal';
import { useOrganizationTree } from '../api/get-organization-tree';
import { AllowedDomains } from '@/features/organizations/components/allowed-domains';
import { SignOutMemberModal } from '@/features/organizations/components/member-access';
import { notifyError, notifySuccess } from '@/components/notify';
import { ConfirmModal } from './confirm-modal';
import { InvitationsTable, UsersTable } from './people-tables';
import { SecondFactorPolicyCard } from './second-factor-policy';

// The form modals load when first opened: the invite form alone brings react-hook-form and zod
// (38 KB gzipped) that the page itself does not need (docs/performance.md, web bundles).
const CreateOrganizationModal = lazy(() => import('./create-organization-modal').then((m) => ({ default: m.CreateOrganizationModal })));
const EditOrganizationModal = lazy(() => import('./edit-organization-modal').then((m) => ({ default: m.EditOrganizationModal })));
const InviteUserModal = lazy(() => import('./invite-user-modal').then((m) => ({ default: m.InviteUserModal })));
const EditRightsModal = lazy(() => import('./edit-rights-modal').then((m) => ({ default: m.EditRightsModal })));
const BulkInviteModal = lazy(() =>
  import('@/features/organizations/components/bulk-invite-modal').then((m) => ({ default: m.BulkInviteModal })),
);

const NO_FEATURES = featuresFrom({});

/** The selected organization: heading, actions by permission, search and the two tables (docs/product.md, "Screens"). */
export function OrganizationView({ organization, user }: { organization: Organization; user: UserInfo }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const features = useFeatures().data ?? NO_FEATURES;
  const { modal, open: setModal, close, fallback: heading } = useModal();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const searching = search.trim().length > 0;
  const results = useMemberSearch(organization.id, debounced);
  const [showAllUsers, setShowAllUsers] = useState(false);
  const [showAllInvitations, setShowAllInvitations] = useState(false);
  const resend = useResendInvitation();
  const remove = useRemoveMember();
  const revoke = useRevokeInvitation();
  const deletion = useDeleteOrganization();
  const tree = useOrganizationTree();
  // a change made: its toast, and the modal closes
  const done = (message: string) => {
    notifySuccess(message);
    close();
  };

  const isOwn = organization.id === user.organizationId;
  const isRoot = organization.parent_id === null;
  const canCreate = user.organizationManager && organization.can_create_sub_organization;
  const canEdit = user.organizationManager && !isOwn && !isRoot;
  const canDelete = canEdit && organization.members.length === 0 && organization.sub_organizations.length === 0;
  const canManageUsers = user.userManager;
  // provider administrators: organizationManagers of the provider's root organization (they edit the allowed e-mail domains)
  const isProviderAdministrator = user.organizationManager && tree.data?.parent_id === null && tree.data.key === user.organizationId;
  const canExport = user.userManager || user.organizationManager;
  const exportMembers = (output: 'csv' | 'xlsx') =>
    void downloadMembersExport(organization.id, output).catch((error: unknown) => notifyError(error));
  // a fresh install: the provider's organization with only its administrator and nothing below it
  const freshInstall =
    isRoot &&
    isOwn &&
    organization.sub_organizations.length === 0 &&
    organization.members.length <= 1 &&
    organization.pending_invitations.length === 0;
  const rightsContext = {
    isProviderOrganization: isRoot,
    organizationClientIds: organization.apps.map((a) => a.client_id),
    features,
    editorIsDeveloper: user.isDeveloper,
  };
  // who edits rights: the editor disables the boxes this user may not change (contracts delegation.ts)
  const actor = user.rights ? { rights: user.rights, isDeveloper: user.isDeveloper } : undefined;

  const members = searching ? (results.data?.members ?? []) : organization.members;
  const invitations = searching ? (results.data?.invitations ?? []) : organization.pending_invitations;

  const onCreated = (id: string, name: string) => {
    done(t('org_created', { name }));
    void navigate(`/manage-organization/${id}`);
  };

  const onDelete = async () => {
    await deletion.mutateAsync(organization.id);
    done(t('org_deleted'));
    if (organization.parent_id) void navigate(`/manage-organization/${organization.parent_id}`);
  };

  const onResend = (invitation: Invitation) =>
    resend.mutate(invitation.invitation_id, {
      onSuccess: () => notifySuccess(t('org_invitation_resent')),
      onError: (error) => notifyError(error),
    });

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start" gap="sm">
        <Title order={1} size="h2" style={{ wordBreak: 'break-word' }} ref={heading} tabIndex={-1}>
          {organization.name}
        </Title>
        <Group gap="xs">
          {canCreate ? (
            <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setModal({ type: 'create' })}>
              {t('org_create_sub_organization')}
            </Button>
          ) : null}
          {canManageUsers ? (
            <Button leftSection={<IconUserPlus size={16} aria-hidden />} onClick={() => setModal({ type: 'invite' })}>
              {t('org_invite_user')}
            </Button>
          ) : null}
          {canManageUsers ? (
            <Button
              variant="default"
              leftSection={<IconFileUpload size={16} aria-hidden />}
              onClick={() => setModal({ type: 'bulk-invite' })}
            >
              {t('adm_bulk_open')}
            </Button>
          ) : null}
          {canEdit ? (
            <Button variant="default" leftSection={<IconPencil size={16} aria-hidden />} onClick={() => setModal({ type: 'edit' })}>
              {t('org_edit_organization')}
            </Button>
          ) : null}
          {canExport ? (
            <Menu position="bottom-end" withinPortal zIndex={1200}>
              <Menu.Target>
                <Button variant="default" leftSection={<IconDownload size={16} aria-hidden />}>
                  {t('org_export_members')}
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item onClick={() => exportMembers('xlsx')}>{t('org_export_xlsx')}</Menu.Item>
                <Menu.Item onClick={() => exportMembers('csv')}>{t('org_export_csv')}</Menu.Item>
              </Menu.Dropdown>
            </Menu>
          ) : null}
          {canDelete ? (
            <Button
              variant="default"
              color="red"
              c="red.9"
              leftSection={<IconTrash size={16} aria-hidden />}
              onClick={() => setModal({ type: 'delete' })}
            >
              {t('org_delete_organization')}
            </Button>
          ) : null}
        </Group>
      </Group>

      <AllowedDomains domains={organization.allowed_email_domains} />

      {freshInstall ? (
        <Alert color="brand" variant="light" icon={<IconInfoCircle aria-hidden />} title={t('org_first_steps_title')}>
          {t('org_first_steps_text')}
        </Alert>
      ) : null}
      <SecondFactorPolicyCard organization={organization} user={user} />

      <TextInput
        type="search"
        label={t('org_search_label')}
        placeholder={t('org_search_placeholder')}
        leftSection={<IconSearch size={16} aria-hidden />}
        rightSection={searching && results.isFetching ? <Loader size="xs" aria-label={t('org_loading')} /> : null}
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
        showAll={showAllUsers}
        onToggleAll={() => setShowAllUsers(!showAllUsers)}
        canManage={canManageUsers}
        ownEmail={user.email}
        onEditRights={(member) => setModal({ type: 'rights', member })}
        onRemove={(member) => setModal({ type: 'remove', member })}
        onSignOut={(member) => setModal({ type: 'sign-out', member })}
      />
      <InvitationsTable
        rows={invitations}
        searching={searching}
        showAll={showAllInvitations}
        onToggleAll={() => setShowAllInvitations(!showAllInvitations)}
        canManage={canManageUsers}
        onResend={onResend}
        onRevoke={(invitation) => setModal({ type: 'revoke', invitation })}
      />

      <Suspense fallback={null}>
        {modal?.type === 'create' ? <CreateOrganizationModal parent={organization} onClose={close} onCreated={onCreated} /> : null}
        {modal?.type === 'edit' ? (
          <EditOrganizationModal
            organization={organization}
            editDomains={isProviderAdministrator}
            onClose={close}
            onUpdated={() => done(t('org_updated'))}
          />
        ) : null}
        {modal?.type === 'invite' ? (
          <InviteUserModal
            organization={organization}
            inviterLanguage={user.languageCode}
            rightsContext={rightsContext}
            actor={actor}
            onClose={close}
            onInvited={() => done(t('org_invitation_sent'))}
          />
        ) : null}
        {modal?.type === 'bulk-invite' ? (
          <BulkInviteModal
            organization={{
              id: organization.id,
              name: organization.name,
              allowed_email_domains: organization.allowed_email_domains,
              members: organization.members.map((m) => ({ id: m.id, email_address: m.email_address })),
            }}
            onClose={close}
          />
        ) : null}
        {modal?.type === 'rights' ? (
          <EditRightsModal
            memberId={modal.member.id}
            email={modal.member.email_address}
            features={features}
            editorIsDeveloper={user.isDeveloper}
            actor={actor}
            onClose={close}
            onSaved={() => done(t('org_rights_updated'))}
          />
        ) : null}
      </Suspense>
      {modal?.type === 'delete' ? (
        <ConfirmModal
          title={t('org_delete_title')}
          message={t('org_delete_confirm', { name: organization.name })}
          confirmLabel={t('org_delete')}
          onClose={close}
          onConfirm={onDelete}
        />
      ) : null}
      {modal?.type === 'remove' ? (
        <ConfirmModal
          title={t('org_remove_title')}
          message={t('org_remove_confirm', {
            email: modal.member.email_address,
            name: modal.member.organization_name ?? organization.name,
          })}
          confirmLabel={t('org_remove')}
          onClose={close}
          onConfirm={async () => {
            await remove.mutateAsync({ organizationId: modal.member.organization_id, memberId: modal.member.id });
            done(t('org_user_removed', { email: modal.member.email_address }));
          }}
        />
      ) : null}
      {modal?.type === 'sign-out' ? (
        <SignOutMemberModal
          member={modal.member}
          onClose={close}
          onDone={() => {
            notifySuccess(t('adm_sign_out_done', { email: modal.member.email_address }));
            close();
          }}
        />
      ) : null}
      {modal?.type === 'revoke' ? (
        <ConfirmModal
          title={t('org_revoke_title')}
          message={t('org_revoke_confirm', { email: modal.invitation.email_address })}
          confirmLabel={t('org_revoke')}
          onClose={close}
          onConfirm={async () => {
            await revoke.mutateAsync(modal.invitation);
            done(t('org_invitation_revoked'));
          }}
        />
      ) : null}
    </Stack>
  );
}
