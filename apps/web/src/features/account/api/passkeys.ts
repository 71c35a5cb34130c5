import { api } from '@/lib/api';
import { createPasskeyCredential, registerPasskey } from '@/lib/factors';
import { useFactorsChange } from './factors';

/** PATCH /api/factors/passkeys/{id} — a new name. */
export const renamePasskey = (id: string, name: string) => api.patch(`/factors/passkeys/${encodeURIComponent(id)}`, { name });

/** DELETE /api/factors/passkeys/{id} */
export const removePasskey = (id: string) => api.delete(`/factors/passkeys/${encodeURIComponent(id)}`);

/** Make a passkey in the browser, then keep it under a name (POST /api/factors/passkeys, shared with the login page). */
export const useAddPasskey = () => useFactorsChange(async (name: string) => registerPasskey(name, await createPasskeyCredential()));
export const useRenamePasskey = () => useFactorsChange(({ id, name }: { id: string; name: string }) => renamePasskey(id, name));
export const useRemovePasskey = () => useFactorsChange(removePasskey);
