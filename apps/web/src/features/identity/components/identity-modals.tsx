import { lazy } from 'react';
import { useTranslation } from 'react-i18next';
import type { Organization, UserInfo } from '@partner-portal/contracts';
import { notifySuccess } from '@/components/notify';
import { useDeclineAccessRequest } from '../api/access-requests';
import { useDeleteDomain } from '../api/domains';
import { SectionModals, type Confirmation } from '@/components/section-modals';
import { requesterName } from './access-requests-panel';
import type { ApproveRequestDialog, IdentityModal } from './shared';

// the forms load when first opened (react-hook-form, zod and the rights editor)
const AddDomainModal = lazy(() => import('./add-domain-modal').then((m) => ({ default: m.AddDomainModal })));
const ConnectionModal = lazy(() => import('./connection-modal').then((m) => ({ default: m.ConnectionModal })));
const ConnectionSwitchModal = lazy(() => import('./connection-switch-modal').then((m) => ({ default: m.ConnectionSwitchModal })));

interface Props {
  modal: IdentityModal | null;
  organization: Organization;
  user: UserInfo;
  close: () => void;
  ApproveRequest: ApproveRequestDialog;
}

/** The modal open in the "Domains and sign-in" section: a form, or the confirmation of a deletion or a refusal. */
export function IdentityModals(props: Props) {
  return <SectionModals form={<FormModal {...props} />} confirmation={useConfirmation(props)} onClose={props.close} />;
}

function FormModal({ modal, organization, user, close, ApproveRequest }: Props) {
  const { t } = useTranslation();
  const done = (message: string) => {
    notifySuccess(message);
    close();
  };
  switch (modal?.type) {
    case 'add-domain':
      return (
        <AddDomainModal
          organizationId={organization.id}
          onClose={close}
          onAdded={(domain) => done(t('identity.domain_added', { domain }))}
        />
      );
    case 'add-connection':
      return (
        <ConnectionModal organization={organization} onClose={close} onSaved={(name) => done(t('identity.connection_created', { name }))} />
      );
    case 'edit-connection':
      return (
        <ConnectionModal
          organization={organization}
          connection={modal.connection}
          onClose={close}
          onSaved={(name) => done(t('identity.connection_updated', { name }))}
        />
      );
    case 'switch-connection':
    case 'delete-connection': {
      const change = modal.type === 'delete-connection' ? 'delete' : modal.active ? 'on' : 'off';
      const message = {
        on: 'identity.connection_switched_on',
        off: 'identity.connection_switched_off',
        delete: 'identity.connection_deleted',
      }[change];
      return (
        <ConnectionSwitchModal
          organizationId={organization.id}
          connection={modal.connection}
          change={change}
          user={user}
          onClose={close}
          onDone={() => done(t(message, { name: modal.connection.name }))}
        />
      );
    }
    case 'approve':
      return (
        <ApproveRequest
          organization={organization}
          user={user}
          request={modal.request}
          onClose={close}
          onApproved={() => done(t('identity.approved', { email: modal.request.email_address }))}
        />
      );
    default:
      return null;
  }
}

/** The confirmation the open modal asks, if it is one. */
function useConfirmation({ modal, organization, close }: Props): Confirmation | null {
  const { t } = useTranslation();
  const deleteDomain = useDeleteDomain(organization.id);
  const decline = useDeclineAccessRequest();
  const done = (message: string) => {
    notifySuccess(message);
    close();
  };
  return modal?.type === 'delete-domain'
    ? {
        title: t('identity.domain_delete_title'),
        message: t('identity.domain_delete_confirm', { domain: modal.domain }),
        confirmLabel: t('identity.delete'),
        onConfirm: async () => {
          await deleteDomain.mutateAsync(modal.domain);
          done(t('identity.domain_deleted', { domain: modal.domain }));
        },
      }
    : modal?.type === 'decline'
      ? {
          title: t('identity.decline_title'),
          message: t('identity.decline_confirm', { name: requesterName(modal.request), email: modal.request.email_address }),
          confirmLabel: t('identity.decline'),
          onConfirm: async () => {
            await decline.mutateAsync(modal.request.id);
            done(t('identity.declined', { email: modal.request.email_address }));
          },
        }
      : null;
}
