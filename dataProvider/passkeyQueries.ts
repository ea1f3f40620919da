import { useQuery } from '@tanstack/react-query';
import { TIMINGS } from '../src/domain/constants';
import { passkeysApi } from './passkeys';
import { ONE_SHOT } from './queries';

// The hooks of dataProvider/passkeys.ts, apart: the sign-in page signs in with a passkey through
// passkeysApi, and the query library would take it over its first-load budget.
export const passkeyKeys = {
  list: (userId: string) => ['users', userId, 'passkeys'] as const,
};

/** GET /auth/passkeys: refreshed like other account data, so a passkey used or removed elsewhere shows. */
export function usePasskeys(userId: string) {
  return useQuery({ queryKey: passkeyKeys.list(userId), queryFn: () => passkeysApi.list(), refetchInterval: TIMINGS.userRefreshMs, ...ONE_SHOT });
}
