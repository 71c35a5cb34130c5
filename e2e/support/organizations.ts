import type { Org, TestPortal } from '@partner-portal/server/test-kit';

/** The root organization (the provider's, made by the bootstrap), to hang a test's organizations under. */
export async function rootOrganization(portal: TestPortal): Promise<Org> {
  const { rows } = await portal.services.db.query<Org>('SELECT id, path, name FROM organizations WHERE id = $1', [
    portal.rootOrganizationId,
  ]);
  return rows[0]!;
}
