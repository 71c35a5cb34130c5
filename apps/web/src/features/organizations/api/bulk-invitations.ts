import { useCallback, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { type BulkInvitationResponse, type BulkInvitationRow } from '@partner-portal/contracts';
import { api } from '@/lib/api';
import { patchTree, refreshPeople } from '@/features/organizations/api/cache';
import { changeCount } from '@/features/organizations/lib/tree';
import { chunkCsv, chunks } from '../lib/bulk-csv';

/**
 * Bulk invitations from a CSV file (docs/decisions/018-the-administrators-day.md, "Bulk invitations"):
 * the dry run of the whole file, then the rows it found ok are sent in chunks of SEND_CHUNK, so the
 * progress shows after each chunk; each chunk is one POST …/invitations/bulk that checks its rows
 * again. The report is the dry run's refusals plus what each chunk answered.
 */
export const SEND_CHUNK = 25;

export async function dryRunBulkInvitation(
  organizationId: string,
  csv: string,
  rightsFrom: string | null,
): Promise<BulkInvitationResponse> {
  const body = await api.post<unknown>(`/organizations/${organizationId}/invitations/bulk/dry-run`, {
    csv,
    rights_from_member_id: rightsFrom,
  });
  return body as BulkInvitationResponse;
}

export async function sendBulkInvitation(organizationId: string, csv: string, rightsFrom: string | null): Promise<BulkInvitationResponse> {
  const body = await api.post<unknown>(`/organizations/${organizationId}/invitations/bulk`, { csv, rights_from_member_id: rightsFrom });
  return body as BulkInvitationResponse;
}

export type BulkPhase = 'checking' | 'checked' | 'sending' | 'done';

export interface BulkState {
  phase: BulkPhase | null;
  dryRun: BulkInvitationResponse | null;
  /** rows sent so far, of `toSend` */
  progress: { done: number; total: number };
  /** every row of the file with its final outcome (after sending) */
  report: BulkInvitationRow[] | null;
  error: unknown;
}

const INITIAL: BulkState = { phase: null, dryRun: null, progress: { done: 0, total: 0 }, report: null, error: null };

export function useBulkInvitation(organizationId: string) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<BulkState>(INITIAL);
  const cancelled = useRef(false);

  const check = useCallback(
    async (csv: string, rightsFrom: string | null) => {
      setState({ ...INITIAL, phase: 'checking' });
      try {
        const dryRun = await dryRunBulkInvitation(organizationId, csv, rightsFrom);
        setState({ ...INITIAL, phase: 'checked', dryRun });
      } catch (error) {
        setState({ ...INITIAL, error });
      }
    },
    [organizationId],
  );

  const send = useCallback(
    async (rightsFrom: string | null) => {
      const dryRun = state.dryRun;
      if (!dryRun) return;
      const ok = dryRun.rows.filter((r) => r.outcome === 'ok');
      const outcomes = new Map<number, BulkInvitationRow>();
      cancelled.current = false;
      setState((s) => ({ ...s, phase: 'sending', progress: { done: 0, total: ok.length }, error: null }));
      let error: unknown = null;
      for (const chunk of chunks(ok, SEND_CHUNK)) {
        if (cancelled.current) break;
        try {
          const answer = await sendBulkInvitation(organizationId, chunkCsv(chunk), rightsFrom);
          // the chunk's rows come back in the chunk's order: its line i+2 is the chunk's row i
          answer.rows.forEach((r, i) => {
            const original = chunk[i];
            if (original) outcomes.set(original.line, { ...original, outcome: r.outcome, invitation_id: r.invitation_id ?? null });
          });
        } catch (e) {
          error = e;
          for (const r of chunk) outcomes.set(r.line, { ...r, outcome: 'failed', invitation_id: null });
        }
        setState((s) => ({ ...s, progress: { done: s.progress.done + chunk.length, total: ok.length } }));
      }
      const report = dryRun.rows.map((r) => outcomes.get(r.line) ?? (r.outcome === 'ok' ? { ...r, outcome: 'failed' as const } : r));
      setState((s) => ({ ...s, phase: 'done', report, error }));
      const sent = report.filter((r) => r.outcome === 'sent').length;
      patchTree(queryClient, (root) => changeCount(root, organizationId, 'pending_invitations', sent));
      await refreshPeople(queryClient);
    },
    [organizationId, queryClient, state.dryRun],
  );

  const reset = useCallback(() => setState(INITIAL), []);
  const cancel = useCallback(() => {
    cancelled.current = true;
  }, []);

  return { state, check, send, reset, cancel };
}
