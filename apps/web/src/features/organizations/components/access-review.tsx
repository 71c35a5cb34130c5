import { use, useId, useMemo, useRef, useState } from 'react';
import { ActionIcon, Button, Checkbox, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconLogout, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { InactiveDays, OrganizationMember } from '@partner-portal/contracts';
import { notifySuccess } from '@/components/notify';
import { useInactiveMembers } from '../api/members';
import { administrationLocales } from '../lib/locales';
import { LastSignIn } from './last-sign-in';
import { BulkRemoveModal, InactiveFilter, SignOutMemberModal } from './member-access';
import { Tooltip } from '@/components/tooltip';

/**
 * The access review of the selected organization's subtree (docs/decisions/018-the-administrators-day.md,
 * "Last sign-in and inactive members"): the members not signed in for N days, with their last
 * sign-in; selected members are removed together after a confirmation that names them; any of
 * them can be signed out everywhere. The server enforces who may do what and its refusals show.
 */
export function AccessReview({ organizationId, ownEmail }: { organizationId: string; ownEmail: string }) {
  use(administrationLocales());
  const { t } = useTranslation();
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [days, setDays] = useState<InactiveDays | null>(null);
  const inactive = useInactiveMembers(organizationId, days);
  const members = useMemo(() => (days === null ? [] : (inactive.data?.members ?? [])), [days, inactive.data]);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [modal, setModal] = useState<{ type: 'remove' } | { type: 'sign-out'; member: OrganizationMember } | null>(null);
  const selectable = members.filter((m) => m.email_address.toLowerCase() !== ownEmail.toLowerCase());
  const chosen = selectable.filter((m) => selected.has(m.id));
  const allChosen = selectable.length > 0 && chosen.length === selectable.length;
  const toggle = (id: string, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  return (
    <Stack component="section" aria-labelledby={headingId} gap="sm" data-testid="access-review">
      <Title order={2} size="h3" id={headingId} ref={heading} tabIndex={-1}>
        {t('adm_access_review_title')}
      </Title>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <InactiveFilter
          value={days}
          onChange={(d) => {
            setDays(d);
            setSelected(new Set());
          }}
        />
        {days !== null && inactive.isFetching ? <Loader size="xs" role="status" aria-label={t('adm_loading')} /> : null}
      </Group>
      {days !== null && inactive.data ? (
        <>
          <Text size="sm" aria-live="polite" data-testid="inactive-count">
            {t('adm_inactive_results', { count: inactive.data.total, days })}
          </Text>
          {selectable.length > 0 ? (
            <Group gap="sm" wrap="wrap">
              <Checkbox
                label={t('adm_select_all')}
                checked={allChosen}
                indeterminate={chosen.length > 0 && !allChosen}
                onChange={(e) => setSelected(e.currentTarget.checked ? new Set(selectable.map((m) => m.id)) : new Set())}
              />
              <Text size="sm" c="gray.7">
                {t('adm_selected', { count: chosen.length })}
              </Text>
              <Button
                color="red"
                variant="light"
                c="red.9"
                size="compact-sm"
                leftSection={<IconTrash size={14} aria-hidden />}
                disabled={chosen.length === 0}
                onClick={() => setModal({ type: 'remove' })}
              >
                {t('adm_remove_selected')}
              </Button>
            </Group>
          ) : null}
          <Stack component="ul" gap={6} style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-labelledby={headingId}>
            {members.map((m) => {
              const own = m.email_address.toLowerCase() === ownEmail.toLowerCase();
              return (
                <Paper component="li" key={m.id} withBorder px="sm" py={6} data-testid="inactive-member" data-email={m.email_address}>
                  <Group justify="space-between" gap="xs" wrap="nowrap" align="center">
                    <Group gap="sm" wrap="wrap" style={{ minWidth: 0 }}>
                      <Checkbox
                        aria-label={t('adm_select_member', { email: m.email_address })}
                        checked={selected.has(m.id)}
                        disabled={own}
                        onChange={(e) => toggle(m.id, e.currentTarget.checked)}
                      />
                      <Stack gap={0} style={{ minWidth: 0 }}>
                        <Text size="sm" fw={500} style={{ wordBreak: 'break-word' }}>
                          {m.email_address}
                        </Text>
                        <Text size="xs" c="gray.7" style={{ wordBreak: 'break-word' }}>
                          {m.organization_name}
                          {' · '}
                          {t('adm_last_sign_in')}: <LastSignIn value={m.last_sign_in_at} />
                        </Text>
                      </Stack>
                    </Group>
                    {own ? null : (
                      <Tooltip label={t('adm_sign_out_of', { email: m.email_address })} withinPortal zIndex={1200}>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          c="red.9"
                          aria-label={t('adm_sign_out_of', { email: m.email_address })}
                          onClick={() => setModal({ type: 'sign-out', member: m })}
                        >
                          <IconLogout size={18} aria-hidden />
                        </ActionIcon>
                      </Tooltip>
                    )}
                  </Group>
                </Paper>
              );
            })}
          </Stack>
        </>
      ) : null}
      {modal?.type === 'remove' ? (
        <BulkRemoveModal
          members={chosen}
          onClose={() => setModal(null)}
          onRemoved={(count) => {
            notifySuccess(t('adm_bulk_remove_done', { count }));
            setSelected(new Set());
            setModal(null);
            // the removed members' rows and the button are gone: the focus goes to the review's heading
            window.setTimeout(() => heading.current?.focus(), 0);
          }}
        />
      ) : null}
      {modal?.type === 'sign-out' ? (
        <SignOutMemberModal
          member={modal.member}
          onClose={() => setModal(null)}
          onDone={() => {
            notifySuccess(t('adm_sign_out_done', { email: modal.member.email_address }));
            setModal(null);
          }}
        />
      ) : null}
    </Stack>
  );
}
