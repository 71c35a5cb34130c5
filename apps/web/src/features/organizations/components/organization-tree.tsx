import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Box, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconSearch, IconShieldLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { OrganizationNode } from '@partner-portal/contracts';
import { ancestorIds, filterMask, indexTree, rowAt, visibleRows } from '../lib/tree';

const ROW_HEIGHT = 34;
const OVERSCAN = 8;

/**
 * The side tree (docs/product.md, "Screens"): a filter box and single selection, following the WAI-ARIA tree pattern
 * (arrow keys, Home/End, Enter). Only the rows in view are drawn, so 10,000 organizations stay
 * fast; filtering is one pass over pre-lowered labels.
 */
export function OrganizationTree({
  root,
  selectedId,
  onSelect,
  height,
}: {
  root: OrganizationNode;
  selectedId: string;
  onSelect: (id: string) => void;
  height: number | string;
}) {
  const { t } = useTranslation();
  const index = useMemo(() => indexTree(root), [root]);
  // whether any organization is marked as requiring a second factor (the legend then explains it)
  const marked = useMemo(() => index.order.some((node) => node.second_factor_required), [index]);
  const [filter, setFilter] = useState('');
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set([root.key, ...ancestorIds(index, selectedId)]));
  const [activeId, setActiveId] = useState(selectedId);
  // when the selection changes from outside (navigation, a new organization), show its ancestors
  const [shownSelection, setShownSelection] = useState(selectedId);
  if (shownSelection !== selectedId) {
    setShownSelection(selectedId);
    setActiveId(selectedId);
    const missing = ancestorIds(index, selectedId).filter((id) => !expanded.has(id));
    if (missing.length > 0) setExpanded(new Set([...expanded, ...missing]));
  }

  const mask = useMemo(() => filterMask(index, filter), [index, filter]);
  const filtering = mask !== null;
  const rows = useMemo(() => visibleRows(index, expanded, mask), [index, expanded, mask]);
  const positionOf = (id: string) => {
    const at = index.position.get(id);
    return at === undefined ? -1 : rows.indexOf(at);
  };
  let activeIndex = positionOf(activeId);
  if (activeIndex < 0) activeIndex = Math.max(0, positionOf(selectedId));
  const active = rows.length > 0 ? rowAt(index, rows, Math.min(activeIndex, rows.length - 1), expanded, mask) : undefined;

  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(600);

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setViewport(el.clientHeight || 600));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  // keep the active row in view
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const top = activeIndex * ROW_HEIGHT;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + ROW_HEIGHT > el.scrollTop + el.clientHeight) el.scrollTop = top + ROW_HEIGHT - el.clientHeight;
  }, [activeIndex]);

  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((scrollTop + viewport) / ROW_HEIGHT) + OVERSCAN);
  const drawn: { row: ReturnType<typeof rowAt>; r: number }[] = [];
  for (let r = first; r < last; r++) drawn.push({ row: rowAt(index, rows, r, expanded, mask), r });
  // the active row is always drawn, so aria-activedescendant always points at an element
  if (active && (activeIndex < first || activeIndex >= last)) drawn.push({ row: active, r: activeIndex });

  const toggle = (id: string, open: boolean) => {
    const next = new Set(expanded);
    if (open) next.add(id);
    else next.delete(id);
    setExpanded(next);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!active) return;
    const move = (r: number) => {
      const at = rows[Math.max(0, Math.min(rows.length - 1, r))];
      if (at !== undefined) setActiveId(index.order[at]!.key);
    };
    switch (event.key) {
      case 'ArrowDown':
        move(activeIndex + 1);
        break;
      case 'ArrowUp':
        move(activeIndex - 1);
        break;
      case 'Home':
        move(0);
        break;
      case 'End':
        move(rows.length - 1);
        break;
      case 'ArrowRight':
        if (active.hasChildren && !active.expanded) toggle(active.node.key, true);
        else if (active.hasChildren) move(activeIndex + 1);
        break;
      case 'ArrowLeft':
        if (active.expanded && !filtering) toggle(active.node.key, false);
        else {
          const parent = index.parent[index.position.get(active.node.key) ?? 0] ?? -1;
          if (parent >= 0) setActiveId(index.order[parent]!.key);
        }
        break;
      case 'Enter':
      case ' ':
        onSelect(active.node.key);
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  return (
    <Box>
      <TextInput
        label={t('org_tree_filter')}
        placeholder={t('org_tree_filter_placeholder')}
        leftSection={<IconSearch size={16} aria-hidden />}
        value={filter}
        onChange={(e) => setFilter(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            scroller.current?.focus();
          }
        }}
        mb="xs"
        size="sm"
      />
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed" role="status">
          {t('org_tree_no_match')}
        </Text>
      ) : null}
      <div
        ref={scroller}
        role="tree"
        aria-label={t('org_tree_label')}
        aria-activedescendant={active ? `org-tree-${active.node.key}` : undefined}
        tabIndex={0}
        onKeyDown={onKeyDown}
        onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
        className="pp-org-tree"
        // at most `height`: a short tree leaves no empty space below its rows
        style={{
          maxHeight: height,
          overflowY: 'auto',
          position: 'relative',
          outlineOffset: -2,
          display: rows.length === 0 ? 'none' : undefined,
        }}
      >
        <div style={{ height: rows.length * ROW_HEIGHT, position: 'relative' }}>
          {drawn.map(({ row, r: i }) => {
            const selected = row.node.key === selectedId;
            const isActive = row.node.key === active?.node.key;
            return (
              <div
                key={row.node.key}
                id={`org-tree-${row.node.key}`}
                role="treeitem"
                aria-level={row.level}
                aria-selected={selected}
                aria-expanded={row.hasChildren ? row.expanded : undefined}
                onClick={() => {
                  setActiveId(row.node.key);
                  onSelect(row.node.key);
                }}
                title={[
                  // the name first: a long one is cut off in the row
                  row.node.label,
                  t('org_tree_members', { count: row.node.members }),
                  t('org_tree_invitations', { count: row.node.pending_invitations }),
                  ...(row.node.second_factor_required ? [t('org_tree_second_factor')] : []),
                ].join(', ')}
                style={{
                  position: 'absolute',
                  top: i * ROW_HEIGHT,
                  left: 0,
                  right: 0,
                  height: ROW_HEIGHT,
                  display: 'flex',
                  alignItems: 'center',
                  gap: 4,
                  paddingLeft: (row.level - 1) * 16 + 4,
                  paddingRight: 8,
                  cursor: 'pointer',
                  borderRadius: 6,
                  background: selected ? 'var(--mantine-color-blue-light)' : undefined,
                  // the selected row is marked by its background and a bar, not by bold type, so its
                  // name needs no more room than when it is not selected
                  boxShadow: selected ? 'inset 3px 0 0 var(--mantine-color-brand-8)' : undefined,
                  outline: isActive ? '2px solid var(--mantine-color-blue-7)' : undefined,
                  outlineOffset: -2,
                  whiteSpace: 'nowrap',
                }}
              >
                <span
                  aria-hidden
                  style={{ width: 20, display: 'inline-flex', justifyContent: 'center', flex: 'none' }}
                  onClick={(e) => {
                    if (!row.hasChildren || filtering) return;
                    e.stopPropagation();
                    setActiveId(row.node.key);
                    toggle(row.node.key, !row.expanded);
                  }}
                >
                  {row.hasChildren ? row.expanded ? <IconChevronDown size={16} /> : <IconChevronRight size={16} /> : null}
                </span>
                <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', flex: 1 }}>{row.node.label}</span>
                {row.node.second_factor_required ? (
                  // set here, for the whole subtree (docs/second-factors.md); read out with the name
                  <span
                    style={{ display: 'inline-flex', flex: 'none', color: 'var(--mantine-color-brand-8)' }}
                    data-testid="tree-second-factor"
                  >
                    <IconShieldLock size={14} aria-hidden />
                    <VisuallyHidden>{t('org_tree_second_factor')}</VisuallyHidden>
                  </span>
                ) : null}
                <span aria-hidden style={{ fontSize: 12, color: 'var(--mantine-color-gray-7)', flex: 'none' }}>
                  {row.node.members}
                </span>
              </div>
            );
          })}
        </div>
      </div>
      <Text size="xs" c="gray.7" mt={6}>
        {t('org_tree_legend')}
      </Text>
      {marked ? (
        <Text size="xs" c="gray.7" mt={2}>
          <IconShieldLock size={12} aria-hidden style={{ verticalAlign: -1, marginRight: 4, color: 'var(--mantine-color-brand-8)' }} />
          {t('org_tree_legend_second_factor')}
        </Text>
      ) : null}
    </Box>
  );
}
