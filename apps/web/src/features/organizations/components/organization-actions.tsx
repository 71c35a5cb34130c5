import { cloneElement, type ReactNode, type RefObject } from 'react';
import { Button, Group } from '@mantine/core';
import { IconDownload, IconFileUpload, IconPencil, IconPlus, IconTrash, IconUserPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Organization, UserInfo } from '@partner-portal/contracts';
import { notifyError } from '@/components/notify';
import { floating, useOnDemand } from '@/components/on-demand';
import type { OrganizationModal } from '../lib/organization-modal';

/** A button of the organization's heading that opens a modal, when the user may use it. */
interface ModalButton {
  show: boolean;
  modal: OrganizationModal;
  label: string;
  icon: ReactNode;
  variant?: 'default';
  danger?: boolean;
}

/** What the signed-in user may do with the organization, as buttons beside its name (docs/product.md, "Screens"). */
export function OrganizationActions({
  organization,
  user,
  open,
}: {
  organization: Organization;
  user: UserInfo;
  open: (modal: OrganizationModal) => void;
}) {
  const { t } = useTranslation();
  const isOwn = organization.id === user.organizationId;
  const isRoot = organization.parent_id === null;
  const canEdit = user.organizationManager && !isOwn && !isRoot;
  const canExport = user.userManager || user.organizationManager;
  const exportMembers = (output: 'csv' | 'xlsx') =>
    // the export's code loads when asked for
    void import('../api/export-members')
      .then(({ downloadMembersExport }) => downloadMembersExport(organization.id, output))
      .catch((error: unknown) => notifyError(error));
  const before: ModalButton[] = [
    {
      show: user.organizationManager && organization.can_create_sub_organization,
      modal: { type: 'create' },
      label: t('org_create_sub_organization'),
      icon: <IconPlus size={16} aria-hidden />,
    },
    { show: user.userManager, modal: { type: 'invite' }, label: t('org_invite_user'), icon: <IconUserPlus size={16} aria-hidden /> },
    {
      show: user.userManager,
      modal: { type: 'bulk-invite' },
      label: t('adm_bulk_open'),
      icon: <IconFileUpload size={16} aria-hidden />,
      variant: 'default',
    },
    {
      show: canEdit,
      modal: { type: 'edit' },
      label: t('org_edit_organization'),
      icon: <IconPencil size={16} aria-hidden />,
      variant: 'default',
    },
  ];
  const deletion: ModalButton = {
    show: canEdit && organization.members.length === 0 && organization.sub_organizations.length === 0,
    modal: { type: 'delete' },
    label: t('org_delete_organization'),
    icon: <IconTrash size={16} aria-hidden />,
    variant: 'default',
    danger: true,
  };
  const button = ({ show, modal, label, icon, variant, danger }: ModalButton) =>
    show ? (
      <Button
        key={modal.type}
        variant={variant}
        color={danger ? 'red' : undefined}
        c={danger ? 'red.9' : undefined}
        leftSection={icon}
        onClick={() => open(modal)}
      >
        {label}
      </Button>
    ) : null;

  return (
    <Group gap="xs">
      {before.map(button)}
      {canExport ? (
        <ExportMenu label={t('org_export_members')} xlsx={t('org_export_xlsx')} csv={t('org_export_csv')} onExport={exportMembers} />
      ) : null}
      {button(deletion)}
    </Group>
  );
}

/**
 * The export's menu: XLSX or CSV. In place, inside the page's main landmark; the first item takes
 * the focus (no placeholder element, which a menu may not hold). Mantine's Menu loads when the
 * button is first pointed at, focused or touched (components/on-demand.ts).
 */
function ExportMenu({
  label,
  xlsx,
  csv,
  onExport,
}: {
  label: string;
  xlsx: string;
  csv: string;
  onExport: (output: 'xlsx' | 'csv') => void;
}) {
  const { loaded, trigger, standIn } = useOnDemand(floating);
  const button = (
    <Button ref={trigger as RefObject<HTMLButtonElement | null>} variant="default" leftSection={<IconDownload size={16} aria-hidden />}>
      {label}
    </Button>
  );
  if (!loaded) return cloneElement(button, { ...standIn, 'aria-haspopup': 'menu', 'aria-expanded': false });
  const { Menu } = loaded;
  return (
    <Menu position="bottom-end" withinPortal={false} withInitialFocusPlaceholder={false} zIndex={1200}>
      <Menu.Target>{button}</Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={() => onExport('xlsx')}>{xlsx}</Menu.Item>
        <Menu.Item onClick={() => onExport('csv')}>{csv}</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
