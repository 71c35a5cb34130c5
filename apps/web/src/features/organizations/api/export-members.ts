import { downloadExport } from '@/lib/download';

/** GET /api/members/export as a file download (lib/download.ts). */
export async function downloadMembersExport(organizationId: string, output: 'csv' | 'xlsx'): Promise<void> {
  const url = new URL('/api/members/export', window.location.origin);
  url.searchParams.set('output', output);
  url.searchParams.set('organizationId', organizationId);
  await downloadExport(url, `members.${output}`);
}
