import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { auditResponseSchema } from '@partner-portal/contracts';
import { downloadExport } from '@/lib/download';
import { pageQueryOptions } from './page-query';

/** GET /api/audit and GET /api/audit/export: one organization's subtree, filtered (packages/contracts, auditFilterSchema). */
export type AuditResponse = z.infer<typeof auditResponseSchema>;

export interface AuditFilters {
  organizationId: string;
  action?: string | undefined;
  actor?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

function queryOf(filters: AuditFilters): Record<string, string> {
  return Object.fromEntries(Object.entries(filters).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''));
}

export const auditKeys = {
  all: ['audit'] as const,
  page: (filters: AuditFilters, page: number) => ['audit', 'page', queryOf(filters), page] as const,
};

export const auditTrailQueryOptions = (filters: AuditFilters, page: number) =>
  pageQueryOptions<AuditResponse>(auditKeys.page(filters, page), '/audit', { ...queryOf(filters), page });

export function useAuditTrail(filters: AuditFilters, page: number) {
  return useQuery({ ...auditTrailQueryOptions(filters, page), placeholderData: keepPreviousData });
}

/** The filtered audit log as a CSV download (fetched with the X-CSRF header every /api call needs). */
export async function downloadAuditExport(filters: AuditFilters): Promise<void> {
  const url = new URL('/api/audit/export', window.location.origin);
  for (const [k, v] of Object.entries(queryOf(filters))) url.searchParams.set(k, v);
  await downloadExport(url, 'audit.csv');
}
