import type { UpdateProfileRequest } from '@partner-portal/contracts';
import { api } from '@/lib/api';

/** PUT /api/identity/update-profile — names and preferred language. */
export const updateProfile = (body: UpdateProfileRequest) => api.put('/identity/update-profile', body);
