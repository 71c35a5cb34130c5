import { use, useState } from 'react';
import { Button, Group, Stack } from '@mantine/core';
import { IconFileUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Organization, UserInfo } from '@partner-portal/contracts';
import { administrationLocales } from '../lib/locales';
import { AccessReview } from './access-review';
import { AuditTrail } from './audit-trail';
import { BulkInviteModal } from './bulk-invite-modal';

/**
 * The administrator's tools below the selected organization (docs/decisions/018-the-administrators-day.md):
 * inviting from a CSV file and the access review for userManagers, the audit trail for every
 * manager. Each part is shown by the rights the server also checks.
 */
export function AdministratorTools({ organization, user }: { organization: Organization; user: UserInfo }) {
  use(administrationLocales());
  const { t } = useTranslation();
  const [bulkOpen, setBulkOpen] = useState(false);
  return (
    <Stack gap="xl" mt="xl">
      {user.userManager ? (
        <>
          <Group>
            <Button variant="default" leftSection={<IconFileUpload size={16} aria-hidden />} onClick={() => setBulkOpen(true)}>
              {t('adm_bulk_open')}
            </Button>
          </Group>
          <AccessReview organizationId={organization.id} ownEmail={user.email} />
        </>
      ) : null}
      {user.userManager || user.organizationManager ? <AuditTrail organizationId={organization.id} /> : null}
      {bulkOpen ? (
        <BulkInviteModal
          organization={{
            id: organization.id,
            name: organization.name,
            allowed_email_domains: organization.allowed_email_domains,
            members: organization.members.map((m) => ({ id: m.id, email_address: m.email_address })),
          }}
          onClose={() => setBulkOpen(false)}
        />
      ) : null}
    </Stack>
  );
}
