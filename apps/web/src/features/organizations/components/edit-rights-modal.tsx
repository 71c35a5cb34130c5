import { useState } from 'react';
import { Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { canManageMember, type Delegator, type Features, type Rights } from '@partner-portal/contracts';
import { useMemberRights, type MemberRights } from '../api/get-member-rights';
import { useChangeMemberRights } from '../api/change-member-rights';
import { errorLines } from '@/components/notify';
import { withRightsInWords } from '@/lib/rights-in-words';
import { ModalFrame, ProblemSummary } from '@/components/modal-frame';
import { RightsEditor } from './rights-editor';

/** Edit user rights (docs/product.md, "Roles and rights") for one member; `actor` is who edits (its boxes follow delegation). */
export function EditRightsModal({
  memberId,
  email,
  features,
  editorIsDeveloper,
  actor,
  onClose,
  onSaved,
}: {
  memberId: string;
  email: string;
  features: Features;
  editorIsDeveloper: boolean;
  actor?: Delegator | undefined;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const query = useMemberRights(memberId);
  return (
    <ModalFrame title={t('org_rights_title', { email })} onClose={onClose} size="xl">
      {query.isPending ? <Loader role="status" aria-label={t('org_loading')} /> : null}
      {query.isError ? <ProblemSummary lines={errorLines(query.error)} /> : null}
      {query.data ? (
        <RightsForm
          data={query.data}
          features={features}
          editorIsDeveloper={editorIsDeveloper}
          actor={actor}
          onClose={onClose}
          onSaved={onSaved}
        />
      ) : null}
    </ModalFrame>
  );
}

function RightsForm({
  data,
  features,
  editorIsDeveloper,
  actor,
  onClose,
  onSaved,
}: {
  data: MemberRights;
  features: Features;
  editorIsDeveloper: boolean;
  actor: Delegator | undefined;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const [rights, setRights] = useState<Rights>(data.rights);
  const [problems, setProblems] = useState<string[] | null>(null);
  const save = useChangeMemberRights();
  const context = {
    isProviderOrganization: data.is_provider_organization,
    organizationClientIds: data.organization_client_ids,
    features,
    editorIsDeveloper,
  };
  const delegation = actor ? { actor, memberRights: data.rights } : undefined;
  const locked = actor ? !canManageMember(actor, data.rights) : false;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        setProblems(null);
        save.mutate(
          { memberId: data.member_id, rights },
          { onSuccess: onSaved, onError: (error) => setProblems(errorLines(withRightsInWords(error, t))) },
        );
      }}
    >
      <Stack>
        <Text size="sm" c="gray.7">
          {t('org_rights_intro')}
        </Text>
        <RightsEditor rights={rights} context={context} delegation={delegation} onChange={setRights} />
        <ProblemSummary lines={problems} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('org_cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} disabled={locked}>
            {t('org_save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
