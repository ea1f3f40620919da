import { skipToken, useQuery } from '@tanstack/react-query';
import { useAreaMutation } from '../mutations';
import { ONE_SHOT } from '../queries';
import { usersApi, type ProfileUpdate } from './index';

/** Query keys of this area. */
export const userKeys = { intercomHash: (userId: string) => ['users', userId, 'intercom-hash'] as const };

/** The support chat's signed identity hash for the signed-in user; waits without one. */
export function useIntercomHash(userId: string | null) {
  return useQuery({ queryKey: userKeys.intercomHash(userId ?? ''), queryFn: userId ? () => usersApi.intercomHash() : skipToken, staleTime: Infinity, ...ONE_SHOT });
}

/**
 * The pre-login order kept with the account at sign-up (null when none, or when it cannot be
 * read), and its clearing once used, so a later sign-in does not order it again.
 */
export const usePendingOrder = () => useAreaMutation((_: null) => usersApi.pendingOrder().catch(() => null));
export const useClearPendingOrder = () => useAreaMutation((_: null) => usersApi.clearPendingOrder().catch(() => undefined));

/** Profile › account: the name, designation and picture. */
export const useUpdateProfile = () => useAreaMutation(({ userId, update }: { userId: string; update: ProfileUpdate }) => usersApi.updateProfile(userId, update));
/** Profile › data: the user's data as a file. */
export const useExportData = () => useAreaMutation((userId: string) => usersApi.exportData(userId));
