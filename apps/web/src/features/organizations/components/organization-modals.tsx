import { lazy, Suspense } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Features, Organization, OrganizationMember, UserInfo } from '@partner-portal/contracts';
import { notifySuccess } from '@/components/notify';
import { useDeleteOrganization } from '../api/delete-organization';
import { useOrganizationTree } from '../api/get-organization-tree';
import { useRemoveMember } from '../api/remove-member';
import { useResetSecondFactors } from '../api/reset-second-factors';
import { useRevokeInvitation } from '../api/revoke-invitation';
import type { OrganizationModal } from '../lib/organization-modal';
import { FOCUS_HEADING } from '../lib/heading-focus';
import { ConfirmModal } from '@/components/confirm-modal';
import { SignOutMemberModal } from './member-access';

// The form modals load when first opened: the invite form alone brings react-hook-form and zod
// (38 KB gzipped) that the page itself does not need (docs/performance.md, web bundles).
const CreateOrganizationModal = lazy(() => import('./create-organization-modal').then((m) => ({ default: m.CreateOrganizationModal })));
const EditOrganizationModal = lazy(() => import('./edit-organization-modal').then((m) => ({ default: m.EditOrganizationModal })));
const InviteUserModal = lazy(() => import('./invite-user-modal').then((m) => ({ default: m.InviteUserModal })));
const EditRightsModal = lazy(() => import('./edit-rights-modal').then((m) => ({ default: m.EditRightsModal })));
const BulkInviteModal = lazy(() => import('./bulk-invite-modal').then((m) => ({ default: m.BulkInviteModal })));

interface Props {
  modal: OrganizationModal | null;
  organization: Organization;
  user: UserInfo;
  features: Features;
  close: () => void;
}

/** The modal open on the organization view (hooks/use-modal.ts): a form, or a confirmation of an irreversible change. */
export function OrganizationModals(props: Props) {
  return (
    <>
      <Suspense fallback={null}>
        <FormModal {...props} />
      </Suspense>
      <ConfirmationModal {...props} />
    </>
  );
}

function FormModal({ modal, organization, user, features, close }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const tree = useOrganizationTree();
  // a change made: its toast, and the modal closes
  const done = (message: string) => {
    notifySuccess(message);
    close();
  };
  const doneWith = (key: string) => () => done(t(key));
  const common = { organization, onClose: close };
  // provider administrators: organizationManagers of the provider's root organization (they edit the allowed e-mail domains)
  const isProviderAdministrator = user.organizationManager && tree.data?.parent_id === null && tree.data.key === user.organizationId;
  const rightsContext = {
    isProviderOrganization: organization.parent_id === null,
    organizationClientIds: organization.apps.map((a) => a.client_id),
    features,
    editorIsDeveloper: user.isDeveloper,
  };
  // who edits rights: the editor disables the boxes this user may not change (contracts delegation.ts)
  const actor = user.rights ? { rights: user.rights, isDeveloper: user.isDeveloper } : undefined;

  switch (modal?.type) {
    case 'create':
      return (
        <CreateOrganizationModal
          parent={organization}
          onClose={close}
          onCreated={(id, name) => {
            done(t('org_created', { name }));
            void navigate(`/manage-organization/${id}`, { state: FOCUS_HEADING });
          }}
        />
      );
    case 'edit':
      return <EditOrganizationModal {...common} editDomains={isProviderAdministrator} onUpdated={doneWith('org_updated')} />;
    case 'invite':
      return (
        <InviteUserModal
          {...common}
          inviterLanguage={user.languageCode}
          rightsContext={rightsContext}
          actor={actor}
          onInvited={doneWith('org_invitation_sent')}
        />
      );
    case 'bulk-invite':
      return (
        <BulkInviteModal
          organization={{
            id: organization.id,
            name: organization.name,
            allowed_email_domains: organization.allowed_email_domains,
            members: organization.members.map((m) => ({ id: m.id, email_address: m.email_address })),
          }}
          onClose={close}
        />
      );
    case 'rights':
      return (
        <EditRightsModal
          memberId={modal.member.id}
          email={modal.member.email_address}
          features={features}
          editorIsDeveloper={user.isDeveloper}
          actor={actor}
          onClose={close}
          onSaved={doneWith('org_rights_updated')}
        />
      );
    default:
      return null;
  }
}

function ConfirmationModal({ modal, organization, close }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const remove = useRemoveMember();
  const resetFactors = useResetSecondFactors();
  const revoke = useRevokeInvitation();
  const deletion = useDeleteOrganization();
  const done = (message: string) => {
    notifySuccess(message);
    close();
  };

  // a lost phone (docs/second-factors.md): the member by name, and what the reset does
  const resetFactorsConfirmation = (member: OrganizationMember) => {
    const name = [member.first_name, member.last_name].filter(Boolean).join(' ') || member.email_address;
    return {
      title: t('membersUi.reset_factors_title'),
      message: `${t('membersUi.reset_factors_confirm', { name })} ${t('membersUi.reset_factors_effect')}`,
      confirmLabel: t('membersUi.reset_factors_confirm_button'),
      onConfirm: async () => {
        await resetFactors.mutateAsync(member.id);
        done(t('membersUi.reset_factors_done', { name }));
      },
    };
  };

  if (modal?.type === 'sign-out')
    return (
      <SignOutMemberModal
        member={modal.member}
        onClose={close}
        onDone={() => done(t('adm_sign_out_done', { email: modal.member.email_address }))}
      />
    );
  const confirmation =
    modal?.type === 'delete'
      ? {
          title: t('org_delete_title'),
          message: t('org_delete_confirm', { name: organization.name }),
          confirmLabel: t('org_delete'),
          onConfirm: async () => {
            await deletion.mutateAsync(organization.id);
            done(t('org_deleted'));
            if (organization.parent_id) void navigate(`/manage-organization/${organization.parent_id}`, { state: FOCUS_HEADING });
          },
        }
      : modal?.type === 'remove'
        ? {
            title: t('org_remove_title'),
            message: t('org_remove_confirm', {
              email: modal.member.email_address,
              name: modal.member.organization_name ?? organization.name,
            }),
            confirmLabel: t('org_remove'),
            onConfirm: async () => {
              await remove.mutateAsync({ organizationId: modal.member.organization_id, memberId: modal.member.id });
              done(t('org_user_removed', { email: modal.member.email_address }));
            },
          }
        : modal?.type === 'reset-factors'
          ? resetFactorsConfirmation(modal.member)
          : modal?.type === 'revoke'
            ? {
                title: t('org_revoke_title'),
                message: t('org_revoke_confirm', { email: modal.invitation.email_address }),
                confirmLabel: t('org_revoke'),
                onConfirm: async () => {
                  await revoke.mutateAsync(modal.invitation);
                  done(t('org_invitation_revoked'));
                },
              }
            : null;
  return confirmation ? <ConfirmModal {...confirmation} onClose={close} /> : null;
}
