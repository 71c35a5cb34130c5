import type { Tile } from '@partner-portal/contracts';
import { api } from '@/lib/api';

/** GET /api/portal — the tiles of the applications the user may open. */
export const getTiles = () => api.get<Tile[]>('/portal');
export const tilesQuery = { queryKey: ['portal', 'tiles'] as const, queryFn: getTiles };
