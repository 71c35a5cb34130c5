import { lazy, Suspense, use, useEffect, useState, type ReactNode } from 'react';
import { Box, Button, Center, Loader, Paper } from '@mantine/core';
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
import { AdministratorTools } from '../components/administrator-tools';
import { organizationLocales } from '../lib/locales';
import { FOCUS_HEADING } from '../lib/heading-focus';
import { notifyError } from '@/components/notify';
import { UnreachableOrganization } from './unreachable-organization';

// the tree's fold (at 768 px or narrower) with its animation loads there only
const Collapse = lazy(() => import('../components/collapse').then((m) => ({ default: m.Collapse })));

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

/** The folded tree (`#org-tree-panel`); opened before the fold's code is there, it shows without the animation. */
function TreeFold({ expanded, children }: { expanded: boolean; children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <div id="org-tree-panel" hidden={!expanded}>
          {expanded ? children : null}
        </div>
      }
    >
      <Collapse expanded={expanded} id="org-tree-panel">
        {children}
      </Collapse>
    </Suspense>
  );
}

function ManageOrganization() {
  // the texts of the page and of the administrator's tools' headings; each tool brings its own
  // texts when it loads (components/administrator-tools.tsx)
  use(organizationLocales());
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
              <TreeFold expanded={treeOpen}>
                <Paper withBorder p="sm" mt="xs">
                  {treeOpen ? treePanel : null}
                </Paper>
              </TreeFold>
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
