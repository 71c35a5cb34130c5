import { useState } from 'react';
import { Alert, Loader, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Organization } from '@partner-portal/contracts';
import { useOrganization } from '../api/get-organization';
import { useUpdateOrganization } from '../api/update-organization';
import { useChangeOrganizationApps } from '../api/change-organization-apps';
import { useChangeCanCreateSubOrganizations } from '../api/change-can-create-sub-organizations';
import { errorLines } from '@/components/notify';
import { useUpdateAllowedDomains } from '@/features/organizations/api/allowed-domains';
import { ModalFrame } from '@/components/modal-frame';
import { OrganizationForm, type OrganizationFormValues } from './organization-form';

/**
 * Edit organization (docs/product.md, "Screens" and "Roles and rights"): never the user's own; the
 * parent's apps available for sub-organizations with a warning naming the organization that the
 * availability cascades, and 'allow creation of sub-organizations' only when the parent allows it.
 */
export function EditOrganizationModal({
  organization,
  editDomains = false,
  onClose,
  onUpdated,
}: {
  organization: Organization;
  /** provider administrators also edit the allowed e-mail domains */
  editDomains?: boolean;
  onClose: () => void;
  /** after every change has been saved */
  onUpdated: () => void;
}) {
  const { t } = useTranslation();
  const parent = useOrganization(organization.parent_id);
  return (
    <ModalFrame title={t('org_edit_title', { name: organization.name })} onClose={onClose}>
      {parent.isPending ? (
        <Loader role="status" aria-label={t('org_loading')} />
      ) : (
        <EditOrganizationForm
          organization={organization}
          parent={parent.data ?? null}
          editDomains={editDomains}
          onClose={onClose}
          onUpdated={onUpdated}
        />
      )}
    </ModalFrame>
  );
}

function EditOrganizationForm({
  organization,
  parent,
  editDomains,
  onClose,
  onUpdated,
}: {
  organization: Organization;
  parent: Organization | null;
  editDomains: boolean;
  onClose: () => void;
  onUpdated: () => void;
}) {
  const { t } = useTranslation();
  const offered = parent ? parent.apps.filter((a) => a.available_for_sub_organizations) : organization.apps;
  const initialApps = organization.apps.map((a) => a.client_id).filter((id) => offered.some((a) => a.client_id === id));
  const [problems, setProblems] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const rename = useUpdateOrganization(organization);
  const apps = useChangeOrganizationApps();
  const children = useChangeCanCreateSubOrganizations();
  const domains = useUpdateAllowedDomains();
  const offerChildren = parent?.sub_organization_can_have_children ?? false;

  // each change is its own call; what succeeded before a failure stays saved (and shows in the tree)
  const submit = async ({ name, clientIds, allowChildren, allowedDomains }: OrganizationFormValues) => {
    setProblems(null);
    setBusy(true);
    try {
      if (name !== organization.name) await rename.mutateAsync({ name });
      const appsChanged = clientIds.length !== initialApps.length || clientIds.some((id) => !initialApps.includes(id));
      if (appsChanged) await apps.mutateAsync({ id: organization.id, client_ids: clientIds });
      if (offerChildren && allowChildren !== organization.can_create_sub_organization)
        await children.mutateAsync({ id: organization.id, value: allowChildren });
      const before = organization.allowed_email_domains;
      if (allowedDomains && (allowedDomains.length !== before.length || allowedDomains.some((d) => !before.includes(d))))
        await domains.mutateAsync({ organizationId: organization.id, domains: allowedDomains });
      onUpdated();
    } catch (error) {
      setProblems(errorLines(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <OrganizationForm
      initial={{
        name: organization.name,
        clientIds: initialApps,
        allowChildren: organization.can_create_sub_organization,
        allowedDomains: organization.allowed_email_domains,
      }}
      offerDomains={editDomains}
      apps={offered}
      offerChildren={offerChildren}
      notice={
        <Alert color="yellow" variant="light">
          <Text size="sm" c="dark">
            {t('org_apps_warning', { name: organization.name })}
          </Text>
        </Alert>
      }
      submitLabel={t('org_update')}
      busy={busy}
      problems={problems}
      onCancel={onClose}
      onSubmit={(values) => void submit(values)}
    />
  );
}
