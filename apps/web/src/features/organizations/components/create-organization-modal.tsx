import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Organization } from '@partner-portal/contracts';
import { useCreateOrganization } from '../api/create-organization';
import { errorLines } from '@/components/notify';
import { ModalFrame } from '@/components/modal-frame';
import { OrganizationForm } from './organization-form';

/**
 * Create sub-organization (docs/product.md, "Screens" and "Validation" and "Roles and rights"): the
 * parent's apps available for sub-organizations; the allow-children option only when the parent
 * allows its sub-organizations to have children.
 */
export function CreateOrganizationModal({
  parent,
  onClose,
  onCreated,
}: {
  parent: Organization;
  onClose: () => void;
  /** after the new organization is in the tree */
  onCreated: (id: string, name: string) => void;
}) {
  const { t } = useTranslation();
  const [problems, setProblems] = useState<string[] | null>(null);
  const create = useCreateOrganization(parent);
  return (
    <ModalFrame title={t('org_create_title', { name: parent.name })} onClose={onClose}>
      <OrganizationForm
        initial={{ name: '', clientIds: [], allowChildren: false }}
        apps={parent.apps.filter((a) => a.available_for_sub_organizations)}
        offerChildren={parent.sub_organization_can_have_children}
        submitLabel={t('org_create')}
        busy={create.isPending}
        problems={problems}
        onCancel={onClose}
        onSubmit={({ name, clientIds, allowChildren }) => {
          setProblems(null);
          create.mutate(
            { parent_organization_id: parent.id, name, client_ids: clientIds, can_create_sub_organization: allowChildren },
            { onSuccess: ({ id }) => onCreated(id, name), onError: (error) => setProblems(errorLines(error)) },
          );
        }}
      />
    </ModalFrame>
  );
}
