import { lazy, Suspense, use, useEffect, useState } from 'react';
import { Box, Button, Center, Collapse, Loader, Paper } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconBinaryTree } from '@tabler/icons-react';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '@/lib/session';
import { Footer } from '@/components/footer';
import { useOrganizationTree } from '../api/get-organization-tree';
import { useOrganization } from '../api/get-organization';
import { OrganizationTree } from '../components/organization-tree';
import { OrganizationView } from '../components/organization-view';
import { organizationLocales } from '../lib/locales';
import { FOCUS_HEADING } from '../lib/heading-focus';
import { administrationLocales } from '@/features/organizations/lib/locales';
import { notifyError } from '@/components/notify';
import { UnreachableOrganization } from './unreachable-organization';

// the administrator's tools (audit trail, access review, bulk invitations) load after the page
const AdministratorTools = lazy(() =>
  import('@/features/organizations/components/administrator-tools').then((m) => ({ default: m.AdministratorTools })),
);

/** /manage-organization/{organizationId}: side tree and the selected organization (docs/product.md, "Screens"). */
export function ManageOrganizationPage() {
  return (
    <Suspense fallback={<PageLoader />}>
      <ManageOrganization />
    </Suspense>
  );
}

function PageLoader() {
  return (
    <Center py="xl">
      <Loader />
    </Center>
  );
}

function ManageOrganization() {
  use(organizationLocales());
  // the users table's last sign-in and sign-out texts, and the administrator's tools below it
  use(administrationLocales());
  const { t } = useTranslation();
  const { organizationId = '' } = useParams();
  const navigate = useNavigate();
  const user = useSessionUser().data;
  const tree = useOrganizationTree();
  const organization = useOrganization(organizationId);
  // at 768 px or narrower the tree folds away behind a toggle button (docs/product.md, "Screens" and "Limits and constants")
  const narrow = useMediaQuery('(max-width: 768px)', false, { getInitialValueInEffect: false });
  const [treeOpen, setTreeOpen] = useState(false);

  useEffect(() => {
    if (tree.isError) notifyError(tree.error);
  }, [tree.isError, tree.error]);

  const select = (id: string) => {
    if (!narrow) {
      if (id !== organizationId) void navigate(`/manage-organization/${id}`);
      return;
    }
    // the tree folds away with the focused item: the focus goes to the chosen organization's heading
    setTreeOpen(false);
    void navigate(`/manage-organization/${id}`, { state: FOCUS_HEADING, replace: id === organizationId });
  };

  const treePanel = tree.data ? (
    <OrganizationTree root={tree.data} selectedId={organizationId} onSelect={select} height={narrow ? 320 : 'calc(100vh - 220px)'} />
  ) : tree.isPending ? (
    <Loader size="sm" role="status" aria-label={t('org_loading')} />
  ) : null;

  return (
    <>
      <Box
        style={{ display: 'flex', flexDirection: narrow ? 'column' : 'row', gap: 'var(--mantine-spacing-lg)', alignItems: 'stretch' }}
        p={narrow ? 'sm' : 'md'}
      >
        <Box component="nav" aria-label={t('org_tree_label')} style={{ width: narrow ? '100%' : 300, flex: 'none' }}>
          {narrow ? (
            <>
              <Button
                variant="light"
                leftSection={<IconBinaryTree size={16} aria-hidden />}
                onClick={() => setTreeOpen(!treeOpen)}
                aria-expanded={treeOpen}
                aria-controls="org-tree-panel"
                fullWidth
              >
                {treeOpen ? t('org_tree_hide') : t('org_tree_show')}
              </Button>
              <Collapse expanded={treeOpen} id="org-tree-panel">
                <Paper withBorder p="sm" mt="xs">
                  {treeOpen ? treePanel : null}
                </Paper>
              </Collapse>
            </>
          ) : (
            <Paper withBorder p="sm" id="org-tree-panel">
              {treePanel}
            </Paper>
          )}
        </Box>
        <Box component="section" style={{ flex: 1, minWidth: 0 }} aria-busy={organization.isPending}>
          {organization.isPending ? <PageLoader /> : null}
          {organization.isError ? <UnreachableOrganization error={organization.error} ownId={tree.data?.key} /> : null}
          {organization.data && user ? <OrganizationView key={organization.data.id} organization={organization.data} user={user} /> : null}
          {organization.data && user && user.manageUsersOrOrganizations ? (
            <Suspense fallback={null}>
              <AdministratorTools key={organization.data.id} organization={organization.data} user={user} />
            </Suspense>
          ) : null}
        </Box>
      </Box>
      <Footer />
    </>
  );
}
