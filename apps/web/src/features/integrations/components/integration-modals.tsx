import { lazy } from 'react';
import { useTranslation } from 'react-i18next';
import type { Organization, UserInfo } from '@partner-portal/contracts';
import { notifySuccess } from '@/components/notify';
import { useDeleteScimToken } from '../api/scim-tokens';
import { useDeleteServiceAccount } from '../api/service-accounts';
import { useDeleteWebhook } from '../api/webhooks';
import { useDeleteAuditStream } from '../api/audit-streams';
import { SectionModals, type Confirmation } from '@/components/section-modals';
import type { IntegrationModal } from './shared';

// the forms load when first opened (react-hook-form and zod)
const ServiceAccountModal = lazy(() => import('./service-account-modal').then((m) => ({ default: m.ServiceAccountModal })));
const ScimTokenModal = lazy(() => import('./scim-token-modal').then((m) => ({ default: m.ScimTokenModal })));
const WebhookModal = lazy(() => import('./webhook-modal').then((m) => ({ default: m.WebhookModal })));
const AuditStreamModal = lazy(() => import('./audit-stream-modal').then((m) => ({ default: m.AuditStreamModal })));
const ReplayModal = lazy(() => import('./audit-stream-modal').then((m) => ({ default: m.ReplayModal })));

interface Props {
  modal: IntegrationModal | null;
  organization: Organization;
  user: UserInfo;
  close: () => void;
}

/** The modal open in the "Integrations" section: a form (then what it made, shown once), or the confirmation of a deletion. */
export function IntegrationModals(props: Props) {
  return <SectionModals form={<FormModal {...props} />} confirmation={useConfirmation(props)} onClose={props.close} />;
}

function FormModal({ modal, organization, user, close }: Props) {
  const { t } = useTranslation();
  switch (modal?.type) {
    case 'create-service-account':
      return <ServiceAccountModal organizationId={organization.id} user={user} onClose={close} />;
    case 'create-scim-token':
      return <ScimTokenModal organizationId={organization.id} onClose={close} />;
    case 'create-webhook':
      return <WebhookModal organizationId={organization.id} onClose={close} onSaved={close} />;
    case 'edit-webhook':
      return (
        <WebhookModal
          organizationId={organization.id}
          webhook={modal.webhook}
          onClose={close}
          onSaved={(url) => {
            notifySuccess(t('integrations.webhook_updated', { url }));
            close();
          }}
        />
      );
    case 'create-audit-stream':
      return <AuditStreamModal organizationId={organization.id} onClose={close} />;
    case 'replay-audit-stream':
      return <ReplayModal organizationId={organization.id} stream={modal.stream} onClose={close} />;
    default:
      return null;
  }
}

/** The confirmation the open modal asks, if it is one. */
function useConfirmation({ modal, organization, close }: Props): Confirmation | null {
  const { t } = useTranslation();
  const deleteAccount = useDeleteServiceAccount(organization.id);
  const deleteToken = useDeleteScimToken(organization.id);
  const deleteWebhook = useDeleteWebhook(organization.id);
  const deleteStream = useDeleteAuditStream(organization.id);
  const done = (message: string) => {
    notifySuccess(message);
    close();
  };
  const confirmLabel = t('integrations.delete');
  return modal?.type === 'delete-service-account'
    ? {
        title: t('integrations.account_delete_title'),
        confirmLabel,
        message: t('integrations.account_delete_confirm', { name: modal.account.name }),
        onConfirm: async () => {
          await deleteAccount.mutateAsync(modal.account.id);
          done(t('integrations.account_deleted', { name: modal.account.name }));
        },
      }
    : modal?.type === 'delete-scim-token'
      ? {
          title: t('integrations.token_delete_title'),
          confirmLabel,
          message: t('integrations.token_delete_confirm', { name: modal.token.name }),
          onConfirm: async () => {
            await deleteToken.mutateAsync(modal.token.id);
            done(t('integrations.token_deleted', { name: modal.token.name }));
          },
        }
      : modal?.type === 'delete-webhook'
        ? {
            title: t('integrations.webhook_delete_title'),
            confirmLabel,
            message: t('integrations.webhook_delete_confirm', { url: modal.webhook.url }),
            onConfirm: async () => {
              await deleteWebhook.mutateAsync(modal.webhook.id);
              done(t('integrations.webhook_deleted', { url: modal.webhook.url }));
            },
          }
        : modal?.type === 'delete-audit-stream'
          ? {
              title: t('integrations.audit_stream_delete_title'),
              confirmLabel,
              message: t('integrations.audit_stream_delete_confirm', { url: modal.stream.url }),
              onConfirm: async () => {
                await deleteStream.mutateAsync(modal.stream.id);
                done(t('integrations.audit_stream_deleted', { url: modal.stream.url }));
              },
            }
          : null;
}
