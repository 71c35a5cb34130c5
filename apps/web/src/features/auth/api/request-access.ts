import type { AccessRequestCreate } from '@partner-portal/contracts';
import { api } from '@/lib/api';

/**
 * POST /api/access-requests: 202 whatever the address (the operating contract, "Access requests"),
 * so that nobody learns who has an account. Not repeated on failure: a 429 says how long to wait.
 */
export const requestAccess = (body: AccessRequestCreate) => api.post('/access-requests', body, { retries: 0 });
