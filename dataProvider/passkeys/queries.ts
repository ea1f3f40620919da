import { useQuery } from '@tanstack/react-query';
import { TIMINGS } from '../../src/domain/constants';
import { useAreaMutation } from '../mutations';
import { passkeysApi } from './index';
import { ONE_SHOT } from '../queries';

// The hooks of dataProvider/passkeys, apart from its calls: the sign-in page signs in with a passkey through
// passkeysApi, and the query library would take it over its first-load budget.
export const passkeyKeys = {
  list: (userId: string) => ['users', userId, 'passkeys'] as const,
};

/** GET /auth/passkeys: refreshed like other account data, so a passkey used or removed elsewhere shows. */
export function usePasskeys(userId: string) {
  return useQuery({ queryKey: passkeyKeys.list(userId), queryFn: () => passkeysApi.list(), refetchInterval: TIMINGS.userRefreshMs, ...ONE_SHOT });
}

/** Profile › passkeys: the browser's creation options, the new passkey, a removal; the list is read again after a change. */
export const usePasskeyOptions = () => useAreaMutation((_: null) => passkeysApi.registrationOptions());
// The form's caller reads the list again with the new passkey.
export const useRegisterPasskey = () => useAreaMutation(({ name, response }: { name: string; response: unknown }) => passkeysApi.register(name, response));
export const useRemovePasskey = (userId: string) => useAreaMutation((id: string) => passkeysApi.remove(id), () => [passkeyKeys.list(userId)]);
