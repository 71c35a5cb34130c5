import type { DeviceDecisionBody, DeviceDecisionResponse, DeviceRequest } from '@partner-portal/contracts';
import { api } from '@/lib/api';

/** POST /api/device/lookup — the application that asks to sign in on a device, by its user code (a guess: never repeated). */
export const lookUpDevice = (userCode: string) => api.post<DeviceRequest>('/device/lookup', { user_code: userCode }, { retries: 0 });

/** POST /api/device/decision — allow or deny; answers where the browser goes to hand the decision to the provider. */
export const decideDevice = (body: DeviceDecisionBody) => api.post<DeviceDecisionResponse>('/device/decision', body, { retries: 0 });
