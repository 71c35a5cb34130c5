import { use, useId, useMemo, useState } from 'react';
import { Alert, Badge, Button, Group, List, Loader, Paper, SimpleGrid, Stack, VisuallyHidden, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDownload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { AUDIT_ACTIONS, type AuditEntry, type OrganizationNode } from '@partner-portal/contracts';
import { useOrganizationTree } from '@/features/organizations/api/get-organization-tree';
import { errorLines, notifyError } from '@/components/notify';
import { downloadAuditExport, useAuditTrail, type AuditFilters } from '../api/audit-trail';
import { administrationLocales } from '../lib/locales';
import { auditWords } from './audit-sentences';
import { DayFilter } from './day-filter';
import { PaginationOnDemand } from './pagination-on-demand';
import { useFormatDate } from '@/lib/dates';
import { Select } from '@/components/select';

/** The organizations of a subtree, depth first, each with its depth below the subtree's root. */
function subtreeOf(root: OrganizationNode | undefined, id: string): { id: string; label: string; depth: number }[] {
  if (!root) return [];
  const find = (node: OrganizationNode): OrganizationNode | null => {
    if (node.key === id) return node;
    for (const child of node.children) {
      const hit = find(child);
      if (hit) return hit;
    }
    return null;
  };
  const start = find(root);
  if (!start) return [];
  const out: { id: string; label: string; depth: number }[] = [];
  const walk = (node: OrganizationNode, depth: number) => {
    out.push({ id: node.key, label: node.label, depth });
    for (const child of node.children) walk(child, depth + 1);
  };
  walk(start, 0);
  return out;
}

/** The translated name of an action; a refusal is the action's name with "refused". */
export function useActionLabel() {
  const { t } = useTranslation();
  return (action: string) => {
    const refused = action.endsWith('.refused');
    const base = refused ? action.slice(0, -'.refused'.length) : action;
    const name = t(`adm_action_${base.replace(/\./g, '_')}`, { defaultValue: base });
    return refused ? t('adm_action_refused', { action: name }) : name;
  };
}

/**
 * The audit trail of the selected organization's subtree (docs/decisions/018-the-administrators-day.md,
 * "Audit trail"): newest first, filtered by organization within it, action, actor and days;
 * each entry as a sentence with what changed (audit-sentences.ts); the same selection as CSV.
 */
export function AuditTrail({ organizationId }: { organizationId: string }) {
  use(administrationLocales());
  const { t } = useTranslation();
  const headingId = useId();
  const bodyId = useId();
  // closed at first: the entries load only when asked for
  const [open, setOpen] = useState(false);
  return (
    <Stack component="section" aria-labelledby={headingId} gap="sm" data-testid="audit-trail">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Title order={2} size="h3" id={headingId}>
          {t('adm_audit_title')}
        </Title>
        <Button variant="subtle" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen(!open)}>
          {open ? t('adm_audit_hide') : t('adm_audit_show')}
        </Button>
      </Group>
      {open ? (
        <div id={bodyId}>
          <AuditTrailBody organizationId={organizationId} />
        </div>
      ) : null}
    </Stack>
  );
}

function AuditTrailBody({ organizationId }: { organizationId: string }) {
  const { t, i18n } = useTranslation();
  const tree = useOrganizationTree();
  const organizations = useMemo(() => subtreeOf(tree.data, organizationId), [tree.data, organizationId]);
  const names = useMemo(() => new Map(organizations.map((o) => [o.id, o.label])), [organizations]);
  const [scope, setScope] = useState(organizationId);
  const [action, setAction] = useState<string | null>(null);
  const [actor, setActor] = useState('');
  const [debouncedActor] = useDebouncedValue(actor.trim(), 300);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(1);
  const rangeInvalid = from !== '' && to !== '' && from > to;
  const filters: AuditFilters = {
    organizationId: scope,
    action: action ?? undefined,
    actor: debouncedActor || undefined,
    from: from || undefined,
    to: rangeInvalid ? undefined : to || undefined,
  };
  const filtered = scope !== organizationId || Boolean(action || debouncedActor || from || to);
  const trail = useAuditTrail(filters, page);
  const actionLabel = useActionLabel();
  const formatDate = useFormatDate();
  const change =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(1);
    };
  const pages = trail.data ? Math.max(1, Math.ceil(trail.data.total / trail.data.page_size)) : 1;

  const actionOptions = AUDIT_ACTIONS.map((a) => ({ value: a, label: actionLabel(a) })).sort((a, b) =>
    a.label.localeCompare(b.label, i18n.language),
  );
  const organizationOptions = organizations.map((o) => ({ value: o.id, label: `${'\u00a0\u00a0'.repeat(o.depth)}${o.label}` }));

  return (
    <Stack gap="sm">
      <Group justify="flex-end" gap="sm">
        <Button
          variant="default"
          leftSection={<IconDownload size={16} aria-hidden />}
          onClick={() => void downloadAuditExport(filters).catch((error: unknown) => notifyError(error))}
        >
          {t('adm_audit_export')}
        </Button>
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 5 }} spacing="sm">
        <Select
          label={t('adm_audit_filter_organization')}
          data={organizationOptions.length > 0 ? organizationOptions : [{ value: organizationId, label: organizationId }]}
          value={scope}
          onChange={(v) => change(setScope)(v ?? organizationId)}
          searchable
          limit={100}
          allowDeselect={false}
          comboboxProps={{ zIndex: 1200 }}
        />
        <Select
          label={t('adm_audit_filter_action')}
          placeholder={t('adm_audit_any_action')}
          data={actionOptions}
          value={action}
          onChange={change(setAction)}
          clearable
          searchable
          // the whole list, without a scrolling region of its own that the keyboard could not reach;
          // always below the field, where the page scrolls to it (flipped above a field low on the
          // page, a list longer than the page began above its top, out of reach)
          withScrollArea={false}
          comboboxProps={{ zIndex: 1200, middlewares: { flip: false, shift: true } }}
        />
        <TextInput
          label={t('adm_audit_filter_actor')}
          placeholder={t('adm_audit_filter_actor_placeholder')}
          value={actor}
          onChange={(e) => change(setActor)(e.currentTarget.value)}
        />
        <DayFilter label={t('adm_audit_filter_from')} value={from} onChange={change(setFrom)} max={to} />
        <DayFilter
          label={t('adm_audit_filter_to')}
          value={to}
          onChange={change(setTo)}
          min={from}
          error={rangeInvalid ? t('adm_audit_range_invalid') : undefined}
        />
      </SimpleGrid>

      {trail.isError ? (
        <Alert color="red" role="alert">
          {errorLines(trail.error).join(' ')}
        </Alert>
      ) : null}
      <Group gap="xs" aria-live="polite">
        {trail.isFetching ? <Loader size="xs" role="status" aria-label={t('adm_loading')} /> : null}
        {trail.data ? (
          <Text size="sm" c="gray.7" data-testid="audit-count">
            {t('adm_audit_count', { count: trail.data.total })}
          </Text>
        ) : null}
      </Group>

      {trail.data && trail.data.entries.length === 0 ? (
        <Text c="gray.7">{t(filtered ? 'adm_audit_empty' : 'textsAndDates.audit_none_yet')}</Text>
      ) : null}
      <Stack component="ol" gap="xs" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('adm_audit_title')}>
        {trail.data?.entries.map((entry) => (
          <AuditEntryCard
            key={entry.id}
            entry={entry}
            when={formatDate(entry.occurred_at, { time: true })}
            organization={
              entry.organization_name ?? ((entry.organization_id && names.get(entry.organization_id)) || entry.organization_path || '—')
            }
            actionLabel={actionLabel}
          />
        ))}
      </Stack>
      {pages > 1 ? (
        <PaginationOnDemand
          total={pages}
          value={page}
          onChange={setPage}
          size="sm"
          getControlProps={(control) => ({ 'aria-label': t(`adm_page_${control}`) })}
          getItemProps={(p) => ({ 'aria-label': t('adm_page_number', { page: p }) })}
        />
      ) : null}
    </Stack>
  );
}

function AuditEntryCard({
  entry,
  when,
  organization,
  actionLabel,
}: {
  entry: AuditEntry;
  when: string;
  organization: string;
  actionLabel: (action: string) => string;
}) {
  const { t } = useTranslation();
  const { sentence, changes } = auditWords(entry, t, { organization, actionLabel });
  const refused = entry.action.endsWith('.refused');
  return (
    <Paper component="li" withBorder p="sm" data-testid="audit-entry" data-action={entry.action}>
      <Group gap="xs" wrap="wrap" mb={4}>
        <Badge
          color={refused ? 'red' : 'brand'}
          variant="light"
          styles={{
            root: { textTransform: 'none', height: 'auto', maxWidth: '100%', overflow: 'visible' },
            label: { whiteSpace: 'normal', overflow: 'visible', textOverflow: 'clip' },
          }}
        >
          {actionLabel(entry.action)}
        </Badge>
        <Text size="sm" c="gray.7">
          <time dateTime={entry.occurred_at}>{when}</time>
        </Text>
      </Group>
      <Text size="sm" fw={600} style={{ wordBreak: 'break-word' }} data-testid="audit-sentence">
        {sentence}
      </Text>
      {changes.length > 0 ? (
        <List size="sm" mt={4} listStyleType="none" spacing={2} style={{ wordBreak: 'break-word' }} data-testid="audit-changes">
          {changes.map((line, index) => (
            <List.Item key={index}>
              {line.kind === 'added' ? (
                <ins style={{ textDecoration: 'none' }}>
                  <span aria-hidden>+ </span>
                  <VisuallyHidden>{t('auditWords.added')}: </VisuallyHidden>
                  {line.text}
                </ins>
              ) : line.kind === 'removed' ? (
                <del style={{ textDecoration: 'none' }}>
                  <span aria-hidden>− </span>
                  <VisuallyHidden>{t('auditWords.removed')}: </VisuallyHidden>
                  {line.text}
                </del>
              ) : (
                line.text
              )}
            </List.Item>
          ))}
        </List>
      ) : null}
    </Paper>
  );
}
