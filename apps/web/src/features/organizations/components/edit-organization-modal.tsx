import { useState } from 'react';
import { Alert, Button, Checkbox, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Organization } from '@partner-portal/contracts';
import { useOrganization } from '../api/get-organization';
import { useUpdateOrganization } from '../api/update-organization';
import { useChangeOrganizationApps } from '../api/change-organization-apps';
import { useChangeCanCreateSubOrganizations } from '../api/change-can-create-sub-organizations';
import { problemLines } from '../lib/problems';
import { ModalFrame, ProblemSummary } from './modal-frame';
import { appName } from '../lib/app-names';

export interface OrganizationChanges {
  name?: string;
  clientIds?: string[];
  canCreateSubOrganizations?: boolean;
}

/**
 * Edit organization (docs/product.md, "Screens" and "Roles and rights"): never the user's own; name (Update disabled while empty), the
 * parent's apps available for sub-organizations with a warning naming the organization that the
 * availability cascades, and 'allow creation of sub-organizations' only when the parent allows it.
 */
export function EditOrganizationModal({
  organization,
  onClose,
  onUpdated,
}: {
  organization: Organization;
  onClose: () => void;
  onUpdated: (changes: OrganizationChanges, finished: boolean) => void;
}) {
  const { t } = useTranslation();
  const parent = useOrganization(organization.parent_id);
  return (
    <ModalFrame title={t('org_edit_title', { name: organization.name })} onClose={onClose}>
      {parent.isPending ? (
        <Loader aria-label={t('org_loading')} />
      ) : (
        <EditOrganizationForm organization={organization} parent={parent.data ?? null} onClose={onClose} onUpdated={onUpdated} />
      )}
    </ModalFrame>
  );
}

function EditOrganizationForm({
  organization,
  parent,
  onClose,
  onUpdated,
}: {
  organization: Organization;
  parent: Organization | null;
  onClose: () => void;
  onUpdated: (changes: OrganizationChanges, finished: boolean) => void;
}) {
  const { t } = useTranslation();
  const offered = parent ? parent.apps.filter((a) => a.available_for_sub_organizations) : organization.apps;
  const initialApps = organization.apps.map((a) => a.client_id).filter((id) => offered.some((a) => a.client_id === id));
  const [name, setName] = useState(organization.name);
  const [clientIds, setClientIds] = useState<string[]>(initialApps);
  const [canCreate, setCanCreate] = useState(organization.can_create_sub_organization);
  const [problems, setProblems] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const rename = useUpdateOrganization();
  const apps = useChangeOrganizationApps();
  const children = useChangeCanCreateSubOrganizations();
  const trimmed = name.trim();
  const offerChildren = parent?.sub_organization_can_have_children ?? false;

  const submit = async () => {
    if (!trimmed) return;
    setProblems(null);
    setBusy(true);
    const changes: OrganizationChanges = {};
    try {
      if (trimmed !== organization.name) {
        await rename.mutateAsync({ id: organization.id, name: trimmed });
        changes.name = trimmed;
      }
      const appsChanged = clientIds.length !== initialApps.length || clientIds.some((id) => !initialApps.includes(id));
      if (appsChanged) {
        await apps.mutateAsync({ id: organization.id, client_ids: clientIds });
        changes.clientIds = clientIds;
      }
      if (offerChildren && canCreate !== organization.can_create_sub_organization) {
        await children.mutateAsync({ id: organization.id, value: canCreate });
        changes.canCreateSubOrganizations = canCreate;
      }
      onUpdated(changes, true);
    } catch (error) {
      setProblems(problemLines(error, t));
      // what succeeded before the failure still shows
      if (Object.keys(changes).length > 0) onUpdated({ ...changes }, false);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <Stack>
        <TextInput
          label={t('org_name')}
          required
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          maxLength={100}
          data-autofocus
        />
        <Alert color="yellow" variant="light">
          <Text size="sm" c="dark">
            {t('org_apps_warning', { name: organization.name })}
          </Text>
        </Alert>
        <Checkbox.Group label={t('org_apps')} value={clientIds} onChange={setClientIds}>
          <Stack gap={6} mt={6}>
            {offered.map((app) => (
              <Checkbox key={app.client_id} value={app.client_id} label={appName(app, t)} />
            ))}
            {offered.length === 0 ? (
              <Text size="sm" c="gray.7">
                {t('org_apps_none')}
              </Text>
            ) : null}
          </Stack>
        </Checkbox.Group>
        {offerChildren ? (
          <Checkbox label={t('org_allow_children')} checked={canCreate} onChange={(e) => setCanCreate(e.currentTarget.checked)} />
        ) : null}
        <ProblemSummary lines={problems} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('org_cancel')}
          </Button>
          <Button type="submit" disabled={!trimmed} loading={busy}>
            {t('org_update')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
