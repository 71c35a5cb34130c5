import type { z } from 'zod';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { featuresFrom, type featuresSchema, type Features } from '@partner-portal/contracts';
import { api } from '@/lib/api';
import { portalKeys } from './query-keys';

/** GET /api/portal/application/features: gates the Control Tower and Ordering Tools rights sections. */
const NONE: Features = featuresFrom({});

export async function getFeatures(signal?: AbortSignal): Promise<Features> {
  try {
    return await api.get<z.infer<typeof featuresSchema>>('/portal/application/features', { signal, retries: 0 });
  } catch {
    // without the flags, the gated sections stay hidden
    return NONE;
  }
}

export const featuresQueryOptions = () =>
  queryOptions({ queryKey: portalKeys.features(), queryFn: ({ signal }) => getFeatures(signal), staleTime: 300_000 });

export function useFeatures() {
  return useQuery(featuresQueryOptions());
}
