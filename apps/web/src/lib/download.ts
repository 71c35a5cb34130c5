import type { Problem } from '@partner-portal/contracts';
import { ApiError } from '@/lib/api';

/** Save a file the page holds as a download under the given name. */
export function saveFile(blob: Blob, name: string): void {
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

/**
 * An export of the API (GET) as a file download: fetched with the X-CSRF header every /api call
 * needs, then saved under the name the server gives in Content-Disposition (or `fallbackName`).
 * A refusal is thrown as an ApiError, like every other call's.
 */
export async function downloadExport(url: URL, fallbackName: string): Promise<void> {
  const response = await fetch(url, { headers: { 'X-CSRF': '1' }, credentials: 'same-origin' });
  if (!response.ok) {
    const problem = (await response.json().catch(() => null)) as Problem | null;
    throw new ApiError(response.status, problem);
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  saveFile(await response.blob(), name);
}
