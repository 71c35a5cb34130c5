import { useMemo, useState } from 'react';
import { Button, Checkbox, Group, Select, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { emptyRights, featuresFrom, type AccessRequest, type Organization, type Rights, type UserInfo } from '@partner-portal/contracts';
import { errorLines } from '@/components/notify';
import { useApproveAccessRequest } from '../api/approve-access-request';
import { useFeatures } from '../api/get-features';
import { useOrganizationTree } from '../api/get-organization-tree';
import { subtreeOptions } from '@/features/identity/lib/identity';
import { withRightsInWords } from '@/lib/rights-in-words';
import { ModalFrame, ProblemSummary } from '@/components/modal-frame';
import { RightsEditor } from './rights-editor';
import { requesterName } from '@/features/identity/components/access-requests-panel';

const NO_FEATURES = featuresFrom({});

/**
 * Approve an access request: the invitation goes to the organization chosen in the selected
 * organization's subtree (by default the one the request was routed to), optionally with rights,
 * edited as in the invite form (only rights the approver holds). Every invitation rule of the
 * server applies; its refusals show above the buttons.
 */
export function ApproveRequestModal({
  organization,
  user,
  request,
  onClose,
  onApproved,
}: {
  organization: Organization;
  user: UserInfo;
  request: AccessRequest;
  onClose: () => void;
  onApproved: () => void;
}) {
  const { t } = useTranslation();
  const tree = useOrganizationTree();
  const features = useFeatures().data ?? NO_FEATURES;
  const approve = useApproveAccessRequest();
  const options = useMemo(() => {
    const found = subtreeOptions(tree.data, organization.id);
    // the tree may not be there yet: the selected organization at least
    return found.length > 0
      ? found
      : [
          {
            value: organization.id,
            label: organization.name,
            apps: organization.apps.map((a) => a.client_id),
            isRoot: organization.parent_id === null,
          },
        ];
  }, [tree.data, organization]);
  const [target, setTarget] = useState(
    options.some((o) => o.value === request.organization_id) ? request.organization_id : organization.id,
  );
  const [withRights, setWithRights] = useState(false);
  const [rights, setRights] = useState<Rights>(emptyRights);
  const [problems, setProblems] = useState<string[] | null>(null);
  const chosen = options.find((o) => o.value === target) ?? options[0]!;
  const name = requesterName(request);

  const submit = () => {
    setProblems(null);
    approve.mutate(
      { id: request.id, organization_id: chosen.value, ...(withRights ? { rights } : {}) },
      { onSuccess: onApproved, onError: (error) => setProblems(errorLines(withRightsInWords(error, t))) },
    );
  };

  return (
    <ModalFrame title={t('identity.approve_title', { name })} onClose={onClose} size={withRights ? 'xl' : 'md'}>
      <Stack>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {t('identity.approve_intro', { email: request.email_address })}
        </Text>
        <Select
          label={t('identity.approve_organization')}
          description={t('identity.approve_organization_description')}
          data={options.map((o) => ({ value: o.value, label: o.label }))}
          value={chosen.value}
          onChange={(value) => value && setTarget(value)}
          allowDeselect={false}
          searchable
          limit={100}
          required
          comboboxProps={{ zIndex: 1200 }}
        />
        <Checkbox label={t('identity.approve_rights')} checked={withRights} onChange={(e) => setWithRights(e.currentTarget.checked)} />
        {withRights ? (
          <RightsEditor
            rights={rights}
            context={{
              isProviderOrganization: chosen.isRoot,
              organizationClientIds: chosen.apps,
              features,
              editorIsDeveloper: user.isDeveloper,
            }}
            delegation={
              user.rights ? { actor: { rights: user.rights, isDeveloper: user.isDeveloper }, memberRights: emptyRights() } : undefined
            }
            onChange={setRights}
          />
        ) : null}
        <ProblemSummary lines={problems} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('identity.cancel')}
          </Button>
          <Button onClick={submit} loading={approve.isPending}>
            {t('identity.approve_submit')}
          </Button>
        </Group>
      </Stack>
    </ModalFrame>
  );
}
