import { useEffect } from 'react';
import { Button, Group, Loader, Paper, Stack, Text, VisuallyHidden } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AccessRequest } from '@partner-portal/contracts';
import { notifyError } from '@/components/notify';
import { useFormatDate } from '@/lib/dates';
import { Address } from '@/components/address';
import type { PanelProps } from './shared';

/** The requester's name as they gave it. */
export const requesterName = (request: AccessRequest) => `${request.first_name} ${request.last_name}`.trim();

/**
 * The pending access requests routed to the organization or below it (the operating contract,
 * "Access requests"), oldest first: who asks, with what address and message, since when, and for
 * which organization. Approve sends an invitation; decline tells the requester.
 */
export function AccessRequestsPanel({
  organization,
  organizationName,
  open,
  requests,
}: PanelProps & { requests: UseQueryResult<AccessRequest[]> }) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  useEffect(() => {
    if (requests.isError) notifyError(requests.error);
  }, [requests.isError, requests.error]);
  const list = requests.data ?? [];

  return (
    <Stack gap="sm">
      <Text size="sm">{t('identity.requests_intro')}</Text>
      {requests.isPending ? <Loader size="sm" role="status" aria-label={t('identity.loading')} /> : null}
      {requests.data && list.length === 0 ? (
        <Text size="sm" c="gray.7">
          {t('identity.requests_none')}
        </Text>
      ) : null}
      {list.length > 0 ? (
        <Stack component="ul" gap="xs" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('identity.tab_requests')}>
          {list.map((request) => {
            const name = requesterName(request);
            return (
              <Paper
                component="li"
                key={request.id}
                withBorder
                p="sm"
                radius="md"
                data-testid="access-request"
                data-email={request.email_address}
              >
                <Group justify="space-between" align="flex-start" gap="xs" wrap="wrap">
                  <Stack gap={2} style={{ minWidth: 0, flex: '1 1 16rem' }}>
                    <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                      {name}
                    </Text>
                    <Text size="sm">
                      <Address value={request.email_address} />
                    </Text>
                    <Text size="xs" c="gray.7">
                      {t('identity.requested_on', { date: formatDate(request.created_at) })}
                      {request.organization_id !== organization.id && organizationName(request.organization_id)
                        ? ` · ${t('identity.for_organization', { name: organizationName(request.organization_id) })}`
                        : null}
                    </Text>
                    {request.message ? (
                      <Text
                        size="sm"
                        mt={4}
                        pl="xs"
                        style={{
                          whiteSpace: 'pre-wrap',
                          overflowWrap: 'anywhere',
                          borderInlineStart: '3px solid var(--mantine-color-gray-4)',
                        }}
                      >
                        <VisuallyHidden>{`${t('identity.message')}: `}</VisuallyHidden>
                        {request.message}
                      </Text>
                    ) : null}
                  </Stack>
                  <Group gap="xs" wrap="wrap">
                    <Button
                      size="compact-sm"
                      leftSection={<IconCheck size={14} aria-hidden />}
                      aria-label={t('identity.approve_label', { name })}
                      onClick={() => open({ type: 'approve', request })}
                    >
                      {t('identity.approve')}
                    </Button>
                    <Button
                      variant="default"
                      size="compact-sm"
                      c="red.9"
                      leftSection={<IconX size={14} aria-hidden />}
                      aria-label={t('identity.decline_label', { name })}
                      onClick={() => open({ type: 'decline', request })}
                    >
                      {t('identity.decline')}
                    </Button>
                  </Group>
                </Group>
              </Paper>
            );
          })}
        </Stack>
      ) : null}
    </Stack>
  );
}
