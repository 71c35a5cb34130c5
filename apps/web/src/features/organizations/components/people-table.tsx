import { createContext, use, useState, type MouseEvent, type ReactNode } from 'react';
import { ActionIcon, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useElementSize, useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { TABLE_ROWS_DEFAULT } from '@partner-portal/contracts';
import classes from './people-tables.module.css';
import { Address } from '@/components/address';
import { Tooltip } from '@/components/tooltip';
// a list has pages only when all of more than 50 rows are shown: Mantine's Pagination loads then
import { PaginationOnDemand } from './pagination-on-demand';

/** A column after the e-mail address; `className` goes on its cells. */
export interface PeopleColumn<T> {
  header: string;
  cell: (row: T) => ReactNode;
  className?: string | undefined;
}

/** Below this width the tables become one card per row (docs/design.md, tables on phones). */
export const CARDS_QUERY = '(max-width: 40em)';

/** At this width or narrower (phones, small tablets) the rows are cards whose actions carry their words: no hover there to show a tooltip. */
const LABELLED_ACTIONS_QUERY = '(max-width: 768px)';

/** Whether row actions show their words (in cards) or only their icons (in a table). */
const LabelledActions = createContext(false);

/**
 * Cards or a table, by the width the section really has (the side tree takes room beside it on
 * tablets); before the first measurement, by the viewport; always cards at 768 px or narrower.
 */
function useCards(minWidth: number) {
  const { ref, width } = useElementSize<HTMLElement>();
  const phone = useMediaQuery(CARDS_QUERY, false, { getInitialValueInEffect: false });
  const narrow = useMediaQuery(LABELLED_ACTIONS_QUERY, false, { getInitialValueInEffect: false });
  return { ref, cards: narrow || (width > 0 ? width < minWidth : phone) };
}

/** Rows on one page of a long list (all of them, or a search's), so 254 invitations do not make one endless page. */
const PAGE_ROWS = 50;

/**
 * 4 rows unless 'view all'; the toggle only above 4 rows and without a search (docs/product.md, "Screens" and "Limits and
 * constants"). All of them, or a search's, come 50 to a page.
 */
function limit<T>(rows: T[], searching: boolean, showAll: boolean, page: number) {
  const toggle = !searching && rows.length > TABLE_ROWS_DEFAULT;
  if (toggle && !showAll) return { shown: rows.slice(0, TABLE_ROWS_DEFAULT), toggle, pages: 1, page: 1 };
  const pages = Math.max(1, Math.ceil(rows.length / PAGE_ROWS));
  const shownPage = Math.min(page, pages);
  return { shown: rows.slice((shownPage - 1) * PAGE_ROWS, shownPage * PAGE_ROWS), toggle, pages, page: shownPage };
}

function ViewAllToggle({ showAll, onToggle, controls }: { showAll: boolean; onToggle: () => void; controls: string }) {
  const { t } = useTranslation();
  return (
    <Button variant="subtle" size="compact-sm" onClick={onToggle} aria-expanded={showAll} aria-controls={controls} mt={4}>
      {showAll ? t('org_view_less') : t('org_view_all')}
    </Button>
  );
}

/** The pages of a long list; a page chosen, the list's heading comes into view. */
function Pages({ page, pages, onChange, headingId }: { page: number; pages: number; onChange: (page: number) => void; headingId: string }) {
  const { t } = useTranslation();
  const controls = { first: 'first', previous: 'previous', next: 'next', last: 'last' } as const;
  return (
    <nav aria-label={t('layoutOnPhones.pages')}>
      <PaginationOnDemand
        total={pages}
        value={page}
        onChange={(next) => {
          onChange(next);
          document.getElementById(headingId)?.scrollIntoView({ block: 'start' });
        }}
        size="sm"
        siblings={1}
        boundaries={1}
        mt="xs"
        getItemProps={(n) => ({ 'aria-label': t('layoutOnPhones.page', { page: n }) })}
        getControlProps={(control) => ({ 'aria-label': t(`layoutOnPhones.${controls[control]}`) })}
      />
    </nav>
  );
}

/** A table heading with its count, e.g. "Users · 1 user". */
function CountedHeading({ id, title, count }: { id: string; title: string; count: ReactNode }) {
  return (
    <Title order={3} id={id} size="h4">
      {title}{' '}
      <Text span c="gray.7" size="sm" fw={400}>
        ({count})
      </Text>
    </Title>
  );
}

/** A row's action; with a `reason`, the signed-in user may not take it: shown disabled, with the reason. */
export interface RowAction {
  /** the accessible name, naming the row */
  label: string;
  /** the short visible tooltip */
  tip: string;
  reason?: string | undefined;
  color?: string;
  icon: ReactNode;
  onClick: () => void;
}

/**
 * A row's actions side by side: in a table icon buttons with tooltips, in cards buttons with their
 * words. One the user may not take stays, disabled, its reason in the tooltip (shown on touch too).
 */
export function RowActions({ actions }: { actions: RowAction[] }) {
  const labelled = use(LabelledActions);
  return (
    <Group gap={labelled ? 'xs' : 4} wrap={labelled ? 'wrap' : 'nowrap'}>
      {actions.map(({ label, tip, reason, color, icon, onClick }) => {
        const common = {
          color,
          // with its words shown, the name starts with them (WCAG 2.5.3, label in name)
          'aria-label': `${labelled ? `${tip} – ` : ''}${label}${reason ? ` (${reason})` : ''}`,
          'aria-disabled': reason ? true : undefined,
          'data-disabled': reason ? true : undefined,
          onClick: (e: MouseEvent) => {
            if (reason) e.preventDefault();
            else onClick();
          },
        };
        return (
          <Tooltip
            key={tip}
            label={reason ? `${tip}: ${reason}` : tip}
            zIndex={1200}
            multiline
            maw={260}
            events={{ hover: true, focus: true, touch: true }}
            disabled={labelled && !reason}
          >
            {labelled ? (
              <Button variant="light" size="compact-sm" leftSection={icon} {...common}>
                {tip}
              </Button>
            ) : (
              <ActionIcon variant="subtle" size="lg" {...common}>
                {icon}
              </ActionIcon>
            )}
          </Tooltip>
        );
      })}
    </Group>
  );
}

/**
 * Which people a table lists. Its element ids (`org-users-table`, `org-users-heading`) and texts
 * (`org_users`, `org_user_count`, `org_no_users`, `org_no_match_users`; likewise for invitations)
 * follow from it.
 */
export type PeopleKind = 'user' | 'invitation';

/** The narrowest sections that still show their columns without sideways scrolling in every language. */
const MIN_WIDTH: Record<PeopleKind, number> = { user: 680, invitation: 760 };

/** The people a table lists (the organization's, or a search's), and whether the user may manage them. */
export interface PeopleList<T> {
  rows: T[];
  searching: boolean;
  canManage: boolean;
}

/**
 * A table of people (users or invitations): a counted heading, the e-mail address first, then
 * `columns`, then the row actions when the user may manage them; on narrow sections one card per
 * row with the address, `details` and the actions; 4 rows unless 'view all', and 50 to a page.
 */
export function PeopleTable<T extends { email_address: string }>({
  kind,
  rows,
  rowKey,
  searching,
  canManage,
  columns,
  details,
  actions: rowActions,
}: PeopleList<T> & {
  kind: PeopleKind;
  rowKey: (row: T) => string;
  columns: PeopleColumn<T>[];
  /** a card's lines below the address */
  details: (row: T) => ReactNode;
  /** the row's actions, shown when the user may manage these rows */
  actions: (row: T) => ReactNode;
}) {
  const { t } = useTranslation();
  const [showAll, setShowAll] = useState(false);
  const [page, setPage] = useState(1);
  const { ref, cards } = useCards(MIN_WIDTH[kind]);
  const { shown, toggle, pages, page: shownPage } = limit(rows, searching, showAll, page);
  const actions = canManage ? rowActions : undefined;
  const id = `org-${kind}s-table`;
  const headingId = `org-${kind}s-heading`;
  return (
    <section aria-labelledby={headingId} ref={ref}>
      <CountedHeading id={headingId} title={t(`org_${kind}s`)} count={t(`org_${kind}_count`, { count: rows.length })} />
      {rows.length === 0 ? (
        <Text c="gray.7" size="sm" py="sm">
          {t(searching ? `org_no_match_${kind}s` : `org_no_${kind}s`)}
        </Text>
      ) : cards ? (
        <Stack component="ul" id={id} gap="xs" className={classes.cards}>
          {shown.map((row) => (
            <Paper component="li" key={rowKey(row)} withBorder p="sm" className={classes.card}>
              <Stack gap={4} miw={0}>
                <Text fw={600} size="sm">
                  <Address value={row.email_address} />
                </Text>
                {details(row)}
                {actions ? <LabelledActions value>{actions(row)}</LabelledActions> : null}
              </Stack>
            </Paper>
          ))}
        </Stack>
      ) : (
        <Table id={id} striped highlightOnHover verticalSpacing={6} className={classes.table}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('org_col_email')}</Table.Th>
              {columns.map((column) => (
                <Table.Th key={column.header}>{column.header}</Table.Th>
              ))}
              {actions ? <Table.Th className={classes.actions}>{t('org_col_actions')}</Table.Th> : null}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((row) => (
              <Table.Tr key={rowKey(row)}>
                <Table.Td>
                  <Address value={row.email_address} />
                </Table.Td>
                {columns.map((column) => (
                  <Table.Td key={column.header} className={column.className}>
                    {column.cell(row)}
                  </Table.Td>
                ))}
                {actions ? <Table.Td className={classes.actions}>{actions(row)}</Table.Td> : null}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {pages > 1 ? <Pages page={shownPage} pages={pages} onChange={setPage} headingId={headingId} /> : null}
      {toggle ? (
        <ViewAllToggle
          showAll={showAll}
          onToggle={() => {
            setShowAll(!showAll);
            setPage(1);
          }}
          controls={id}
        />
      ) : null}
    </section>
  );
}
