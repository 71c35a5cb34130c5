import { use, useState } from 'react';
import { Badge, Button, FileInput, Group, NativeSelect, Paper, Progress, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconDownload, IconFileTypeCsv } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { BULK_INVITATION_MAX_ROWS, userLanguageOf, type BulkInvitationOutcome, type BulkInvitationRow } from '@partner-portal/contracts';
import { ModalFrame, ProblemSummary } from '@/components/modal-frame';
import { errorLines } from '@/components/notify';
import { useBulkInvitation } from '../api/bulk-invitations';
import { reportCsv, templateCsv, type ReportColumn } from '../lib/bulk-csv';
import { administrationLocales } from '../lib/locales';
import { saveFile } from '@/lib/download';
import { CARDS_QUERY } from './people-table';

export interface BulkInviteOrganization {
  id: string;
  name: string;
  allowed_email_domains: string[];
  /** members whose rights may be copied to every invitation */
  members: { id: string; email_address: string }[];
}

const outcomeColor = (outcome: BulkInvitationOutcome) =>
  outcome === 'ok' || outcome === 'sent' ? 'green' : outcome === 'failed' ? 'red' : 'orange';

const download = (name: string, text: string) => saveFile(new Blob([text], { type: 'text/csv;charset=utf-8' }), name);

/**
 * The report's column names (lib/bulk-csv.ts, REPORT_COLUMNS) in the interface language; the
 * columns of codes for machines (outcome, invitation_id) keep the names of the server's report.
 */
const REPORT_COLUMN_TEXT: Partial<Record<ReportColumn, string>> = {
  line: 'adm_bulk_line',
  email_address: 'adm_bulk_email',
  first_name: 'bulkFile.firstName',
  last_name: 'bulkFile.lastName',
  language_code: 'adm_bulk_language',
  verdict: 'adm_bulk_outcome',
};

/**
 * Invite from a CSV file (docs/decisions/018-the-administrators-day.md, "Bulk invitations"): the
 * dry run's verdict for every row, then the sending with its progress, then the report.
 */
export function BulkInviteModal({ organization, onClose }: { organization: BulkInviteOrganization; onClose: () => void }) {
  use(administrationLocales());
  const { t, i18n } = useTranslation();
  const phone = useMediaQuery(CARDS_QUERY, false, { getInitialValueInEffect: false });
  const [file, setFile] = useState<File | null>(null);
  const [rightsFrom, setRightsFrom] = useState('');
  const bulk = useBulkInvitation(organization.id);
  const { phase, dryRun, progress, report, error } = bulk.state;
  const domains = organization.allowed_email_domains.map((d) => `@${d.replace(/^@/, '')}`);
  const rows: BulkInvitationRow[] = report ?? dryRun?.rows ?? [];
  const counts = rows.reduce<Partial<Record<BulkInvitationOutcome, number>>>(
    (c, r) => ({ ...c, [r.outcome]: (c[r.outcome] ?? 0) + 1 }),
    {},
  );
  const toSend = dryRun?.ok ?? 0;
  const busy = phase === 'checking' || phase === 'sending';
  /** A row's verdict in words: a language refused names the value the file gave. */
  const verdict = (r: BulkInvitationRow) =>
    r.outcome === 'invalid_language' && r.language_code
      ? t('bulkFile.invalidLanguage', { value: r.language_code })
      : t(`adm_bulk_outcome_${r.outcome}`);
  const downloadTemplate = () => {
    const domain = organization.allowed_email_domains[0]?.replace(/^@/, '') ?? 'example.com';
    const csv = templateCsv({
      email: `${t('bulkFile.exampleLocalPart')}@${domain}`,
      firstName: t('bulkFile.exampleFirstName'),
      lastName: t('bulkFile.exampleLastName'),
      language: userLanguageOf(i18n.language) ?? 'en',
    });
    download('invitations-template.csv', csv);
  };

  const check = async () => {
    if (!file) return;
    await bulk.check(await file.text(), rightsFrom || null);
  };
  const close = () => {
    bulk.cancel();
    onClose();
  };

  return (
    <ModalFrame title={t('adm_bulk_title', { name: organization.name })} onClose={close} size="xl">
      <Stack>
        <Text size="sm">{t('adm_bulk_intro', { max: BULK_INVITATION_MAX_ROWS.toLocaleString(i18n.language) })}</Text>
        <Text size="sm" c="gray.7">
          {domains.length > 0 ? t('adm_domains_invite_explained', { domains: domains.join(', ') }) : t('adm_domains_none_invite')}
        </Text>
        {phase !== 'sending' && phase !== 'done' ? (
          <>
            <FileInput
              label={t('adm_bulk_file')}
              placeholder={t('adm_bulk_file_placeholder')}
              // the placeholder is the field's only text: darker than Mantine's, for WCAG AA contrast
              styles={{ placeholder: { color: 'var(--mantine-color-dimmed)' } }}
              accept=".csv,text/csv"
              leftSection={<IconFileTypeCsv size={16} aria-hidden />}
              value={file}
              onChange={(f) => {
                setFile(f);
                bulk.reset();
              }}
              data-autofocus
            />
            <Group gap="xs" wrap="wrap" align="center">
              <Button
                variant="light"
                size="xs"
                style={{ flexShrink: 0 }}
                leftSection={<IconDownload size={14} aria-hidden />}
                onClick={downloadTemplate}
              >
                {t('bulkFile.template')}
              </Button>
              <Text size="xs" c="dimmed">
                {t('bulkFile.templateHelp')}
              </Text>
            </Group>
            <NativeSelect
              label={t('adm_bulk_rights')}
              value={rightsFrom}
              onChange={(e) => {
                setRightsFrom(e.currentTarget.value);
                bulk.reset();
              }}
              data={[
                { value: '', label: t('adm_bulk_rights_none') },
                ...organization.members.map((m) => ({ value: m.id, label: t('adm_bulk_rights_of', { email: m.email_address }) })),
              ]}
            />
          </>
        ) : null}

        {rows.length > 0 ? (
          <>
            <Group gap="xs" aria-live="polite" data-testid="bulk-summary">
              {Object.entries(counts).map(([outcome, n]) => (
                <Badge
                  key={outcome}
                  color={outcomeColor(outcome as BulkInvitationOutcome)}
                  variant="dot"
                  styles={{
                    root: { textTransform: 'none', overflow: 'visible', maxWidth: 'none' },
                    label: { overflow: 'visible', textOverflow: 'clip' },
                  }}
                >
                  {t(`adm_bulk_outcome_${outcome}`)}: {n}
                </Badge>
              ))}
            </Group>
            <ScrollArea.Autosize
              mah={360}
              type="auto"
              offsetScrollbars
              viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': t('adm_bulk_rows') }}
            >
              {phone ? (
                // on a phone each row is a card: five columns do not fit 390 px (docs/design.md, tables)
                <Stack component="ul" gap={6} p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('adm_bulk_rows')}>
                  {rows.map((r) => (
                    <Paper component="li" key={r.line} withBorder p="xs" data-testid="bulk-row" data-line={r.line} data-outcome={r.outcome}>
                      <Group justify="space-between" gap={6} wrap="wrap">
                        <Text size="xs" c="dimmed">
                          {t('adm_bulk_line')} {r.line}
                        </Text>
                        <Text span size="sm" fw={r.outcome === 'ok' || r.outcome === 'sent' ? 400 : 600}>
                          {verdict(r)}
                        </Text>
                      </Group>
                      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                        {r.email_address}
                      </Text>
                      <Text size="sm" c="dimmed">
                        {[`${r.first_name} ${r.last_name}`.trim(), r.language_code].filter(Boolean).join(' · ')}
                      </Text>
                    </Paper>
                  ))}
                </Stack>
              ) : (
                <Table fz="sm" striped stickyHeader aria-label={t('adm_bulk_rows')}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('adm_bulk_line')}</Table.Th>
                      <Table.Th>{t('adm_bulk_email')}</Table.Th>
                      <Table.Th>{t('adm_bulk_name')}</Table.Th>
                      <Table.Th>{t('adm_bulk_language')}</Table.Th>
                      <Table.Th>{t('adm_bulk_outcome')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {rows.map((r) => (
                      <Table.Tr key={r.line} data-testid="bulk-row" data-line={r.line} data-outcome={r.outcome}>
                        <Table.Td>{r.line}</Table.Td>
                        <Table.Td style={{ wordBreak: 'break-all' }}>{r.email_address}</Table.Td>
                        <Table.Td>{`${r.first_name} ${r.last_name}`.trim()}</Table.Td>
                        <Table.Td>{r.language_code ?? '—'}</Table.Td>
                        <Table.Td>
                          <Text span size="sm" fw={r.outcome === 'ok' || r.outcome === 'sent' ? 400 : 600}>
                            {verdict(r)}
                          </Text>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
            </ScrollArea.Autosize>
          </>
        ) : null}

        {phase === 'sending' || phase === 'done' ? (
          <Stack gap={4}>
            <Text size="sm" id="bulk-progress-label" aria-live="polite">
              {phase === 'done'
                ? t('adm_bulk_done', { sent: counts.sent ?? 0, total: rows.length })
                : t('adm_bulk_progress', { done: progress.done, total: progress.total })}
            </Text>
            <Progress.Root size="lg">
              <Progress.Section
                value={progress.total === 0 ? 100 : (progress.done / progress.total) * 100}
                animated={phase === 'sending'}
                aria-labelledby="bulk-progress-label"
              />
            </Progress.Root>
          </Stack>
        ) : null}

        <ProblemSummary lines={error ? errorLines(error) : null} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {phase === 'done' ? t('adm_close') : t('adm_cancel')}
          </Button>
          {phase === 'done' && report ? (
            <Button
              leftSection={<IconDownload size={16} aria-hidden />}
              onClick={() =>
                download(
                  `invitations-report-${new Date().toISOString().slice(0, 10)}.csv`,
                  reportCsv(report, {
                    column: (c) => {
                      const key = REPORT_COLUMN_TEXT[c];
                      return key ? t(key) : c;
                    },
                    verdict,
                  }),
                )
              }
            >
              {t('adm_bulk_download_report')}
            </Button>
          ) : phase === 'checked' ? (
            <Button onClick={() => void bulk.send(rightsFrom || null)} disabled={toSend === 0}>
              {t('adm_bulk_send', { count: toSend })}
            </Button>
          ) : phase !== 'sending' ? (
            <Button onClick={() => void check()} disabled={!file} loading={busy}>
              {t('adm_bulk_check')}
            </Button>
          ) : null}
        </Group>
      </Stack>
    </ModalFrame>
  );
}
