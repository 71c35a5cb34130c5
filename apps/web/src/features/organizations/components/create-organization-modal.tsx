import { useState } from 'react';
import { Button, Checkbox, Group, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Organization } from '@partner-portal/contracts';
import { useCreateOrganization } from '../api/create-organization';
import { problemLines } from '../lib/problems';
import { ModalFrame, ProblemSummary } from './modal-frame';
import { appName } from '../lib/app-names';

/**
 * Create sub-organization (docs/product.md, "Screens" and "Validation" and "Roles and rights"): name required and trimmed (Create disabled while
 * empty); the parent's apps available for sub-organizations; the allow-children option only when
 * the parent allows its sub-organizations to have children.
 */
export function CreateOrganizationModal({
  parent,
  onClose,
  onCreated,
}: {
  parent: Organization;
  onClose: () => void;
  onCreated: (id: string, name: string) => Promise<void>;
}) {
  const { t } = useTranslation();
  const apps = parent.apps.filter((a) => a.available_for_sub_organizations);
  const [name, setName] = useState('');
  const [clientIds, setClientIds] = useState<string[]>([]);
  const [allowChildren, setAllowChildren] = useState(false);
  const [problems, setProblems] = useState<string[] | null>(null);
  const create = useCreateOrganization();
  const trimmed = name.trim();

  const submit = () => {
    if (!trimmed) return;
    setProblems(null);
    create.mutate(
      {
        parent_organization_id: parent.id,
        name: trimmed,
        client_ids: clientIds,
        can_create_sub_organization: parent.sub_organization_can_have_children && allowChildren,
      },
      { onSuccess: ({ id }) => void onCreated(id, trimmed), onError: (error) => setProblems(problemLines(error, t)) },
    );
  };

  return (
    <ModalFrame title={t('org_create_title', { name: parent.name })} onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
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
          <Checkbox.Group label={t('org_apps')} value={clientIds} onChange={setClientIds}>
            <Stack gap={6} mt={6}>
              {apps.map((app) => (
                <Checkbox key={app.client_id} value={app.client_id} label={appName(app, t)} />
              ))}
              {apps.length === 0 ? (
                <Text size="sm" c="gray.7">
                  {t('org_apps_none')}
                </Text>
              ) : null}
            </Stack>
          </Checkbox.Group>
          {parent.sub_organization_can_have_children ? (
            <Checkbox label={t('org_allow_children')} checked={allowChildren} onChange={(e) => setAllowChildren(e.currentTarget.checked)} />
          ) : null}
          <ProblemSummary lines={problems} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('org_cancel')}
            </Button>
            <Button type="submit" disabled={!trimmed} loading={create.isPending}>
              {t('org_create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </ModalFrame>
  );
}
