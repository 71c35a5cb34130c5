import type { Notification } from '@partner-portal/contracts';
import { api } from '@/lib/api';

/** GET /api/portal/notifications — warnings shown above the tiles. */
export const getNotifications = () => api.get<Notification[]>('/portal/notifications');
export const notificationsQuery = { queryKey: ['portal', 'notifications'] as const, queryFn: getNotifications };
