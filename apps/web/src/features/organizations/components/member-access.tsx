import { lazy, use, useState } from 'react';
import { Button, Group, List, NativeSelect, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { INACTIVE_DAYS, type InactiveDays, type OrganizationMember } from '@partner-portal/contracts';
import { ApiError } from '@/lib/api';
import { ModalFrame, ProblemSummary } from '@/components/modal-frame';
import { errorLines } from '@/components/notify';
import { useBulkRemoveMembers, useSignOutMember } from '../api/members';
import { administrationLocales } from '../lib/locales';

// Mantine's ScrollArea comes with the dialog that shows it (components/modal-dialog.tsx), not with the page.
const ScrollAreaAutosize = lazy(() => import('@/components/modal-dialog').then((m) => ({ default: m.ModalScrollArea })));

/** The "not signed in for N days" filter (30/90/180/365) over the subtree; empty: everyone. */
export function InactiveFilter({ value, onChange }: { value: InactiveDays | null; onChange: (days: InactiveDays | null) => void }) {
  use(administrationLocales());
  const { t } = useTranslation();
  return (
    <NativeSelect
      label={t('adm_inactive_filter')}
      value={value === null ? '' : String(value)}
      onChange={(e) => onChange(e.currentTarget.value === '' ? null : (Number(e.currentTarget.value) as InactiveDays))}
      data={[
        { value: '', label: t('adm_inactive_any') },
        ...INACTIVE_DAYS.map((d) => ({ value: String(d), label: t('adm_inactive_days', { days: d }) })),
      ]}
      maw={260}
    />
  );
}

/** The server's refusal, naming the member it refused (bulk removal is all or none). */
function refusalLines(error: unknown, members: readonly OrganizationMember[]): string[] {
  const lines = errorLines(error);
  const id = error instanceof ApiError ? (error.problem?.params as Record<string, unknown> | undefined)?.member_id : undefined;
  const member = typeof id === 'string' ? members.find((m) => m.id === id) : undefined;
  return member ? lines.map((line) => `${member.email_address}: ${line}`) : lines;
}

/** Remove the selected members, after a confirmation that names each of them. */
export function BulkRemoveModal({
  members,
  onClose,
  onRemoved,
}: {
  members: readonly OrganizationMember[];
  onClose: () => void;
  onRemoved: (count: number) => void;
}) {
  use(administrationLocales());
  const { t } = useTranslation();
  const remove = useBulkRemoveMembers();
  const [problems, setProblems] = useState<string[] | null>(null);
  const confirm = () => {
    setProblems(null);
    remove.mutate(members, {
      onSuccess: (answer) => onRemoved(answer.removed),
      onError: (error) => setProblems(refusalLines(error, members)),
    });
  };
  return (
    <ModalFrame title={t('adm_bulk_remove_title', { count: members.length })} onClose={onClose}>
      <Stack>
        <Text>{t('adm_bulk_remove_confirm', { count: members.length })}</Text>
        <ScrollAreaAutosize
          mah={240}
          type="auto"
          viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': t('adm_bulk_remove_title', { count: members.length }) }}
        >
          <List size="sm" data-testid="bulk-remove-names">
            {members.map((m) => (
              <List.Item key={m.id} style={{ wordBreak: 'break-word' }}>
                {m.email_address}
                {m.organization_name ? ` (${m.organization_name})` : ''}
              </List.Item>
            ))}
          </List>
        </ScrollAreaAutosize>
        <ProblemSummary lines={problems} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>
            {t('adm_cancel')}
          </Button>
          <Button color="red" onClick={confirm} loading={remove.isPending}>
            {t('adm_remove')}
          </Button>
        </Group>
      </Stack>
    </ModalFrame>
  );
}

/** A userManager signs a member out everywhere (portal sessions, tokens, back-channel logout). */
export function SignOutMemberModal({ member, onClose, onDone }: { member: OrganizationMember; onClose: () => void; onDone: () => void }) {
  use(administrationLocales());
  const { t } = useTranslation();
  const signOut = useSignOutMember();
  const [problems, setProblems] = useState<string[] | null>(null);
  return (
    <ModalFrame title={t('adm_sign_out_title')} onClose={onClose}>
      <Stack>
        <Text style={{ wordBreak: 'break-word' }}>{t('adm_sign_out_confirm', { email: member.email_address })}</Text>
        <ProblemSummary lines={problems} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>
            {t('adm_cancel')}
          </Button>
          <Button
            color="red"
            loading={signOut.isPending}
            onClick={() => {
              setProblems(null);
              signOut.mutate(member.id, { onSuccess: onDone, onError: (error) => setProblems(errorLines(error)) });
            }}
          >
            {t('adm_sign_out')}
          </Button>
        </Group>
      </Stack>
    </ModalFrame>
  );
}
