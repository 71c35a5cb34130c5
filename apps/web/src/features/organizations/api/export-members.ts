import { ApiError } from '@/lib/api';
import type { Problem } from '@partner-portal/contracts';

/**
 * GET /api/members/export as a file download: fetched with the X-CSRF header every /api call
 * needs, then saved under the name the server gives in Content-Disposition.
 */
export async function downloadMembersExport(organizationId: string, output: 'csv' | 'xlsx'): Promise<void> {
  const url = new URL('/api/members/export', window.location.origin);
  url.searchParams.set('output', output);
  url.searchParams.set('organizationId', organizationId);
  const response = await fetch(url, { headers: { 'X-CSRF': '1' }, credentials: 'same-origin' });
  if (!response.ok) {
    const problem = (await response.json().catch(() => null)) as Problem | null;
    throw new ApiError(response.status, problem);
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? `members.${output}`;
  const href = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(href), 10_000);
}
