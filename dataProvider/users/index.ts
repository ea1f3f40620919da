import type { CurrentUser } from '../../src/domain/auth/schemas';
import type { PendingConfiguration } from '../../src/domain/orders/schemas';
import { apiDownload, apiFetch } from '../httpClient';

export interface ProfileUpdate {
  firstName: string;
  designation: string;
  /** A new picture to upload, or null to remove the current one; leave out to keep it. */
  picture?: File | null;
}

/** Typed profile calls (SPEC §7 Users, profile data). */
export const usersApi = {
  /** PUT /users/{id}: multipart when a picture is uploaded, JSON otherwise. */
  updateProfile: async (id: string, update: ProfileUpdate): Promise<CurrentUser> => {
    let body: BodyInit;
    if (update.picture) {
      const form = new FormData();
      form.set('firstName', update.firstName);
      form.set('designation', update.designation);
      form.set('uploadPicture', update.picture);
      body = form;
    } else {
      body = JSON.stringify({ firstName: update.firstName, designation: update.designation, removePicture: update.picture === null });
    }
    return (await apiFetch<CurrentUser>(`/users/${encodeURIComponent(id)}`, { method: 'PUT', body })).payload;
  },
  /** The user's data export (SPEC §7 Other: a GET to the export endpoint, saved as a dated JSON file). */
  exportData: (id: string) => apiDownload(`/users/${encodeURIComponent(id)}/export`),
  intercomHash: async () => (await apiFetch<{ hash: string }>('/auth/intercom-hash')).payload,
  /** The pre-login order kept with the account at sign-up, or null. */
  pendingOrder: async (): Promise<PendingConfiguration | null> => (await apiFetch<{ configuration: PendingConfiguration | null }>('/users/me/pending-order')).payload.configuration,
  clearPendingOrder: async (): Promise<void> => void (await apiFetch<{ configuration: null }>('/users/me/pending-order', { method: 'DELETE' })),
};
