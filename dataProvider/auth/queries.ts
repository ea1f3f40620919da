import { useAreaMutation } from '../mutations';
import { authApi } from './index';

// The signed-in profile's account calls as mutations. The front door's sign-in, sign-up and
// recovery pages call `authApi` through `useFormSubmit` instead: the query library stays out of
// their first load (CONTRIBUTING names the exception).
export const useReauthenticate = () => useAreaMutation((proof: { password?: string; code?: string }) => authApi.reauthenticate(proof));
export const useSetPassword = () => useAreaMutation((body: Parameters<typeof authApi.setPassword>[0]) => authApi.setPassword(body));
export const useTwoFactorInitiate = () => useAreaMutation((_: null) => authApi.twoFactorInitiate());
export const useTwoFactorEnable = () => useAreaMutation((code: string) => authApi.twoFactorEnable(code));
export const useTwoFactorDisable = () => useAreaMutation((code: string) => authApi.twoFactorDisable(code));
export const useDeleteMe = () => useAreaMutation((password: string | undefined) => authApi.deleteMe(password));
