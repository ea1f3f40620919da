import { afterEach, describe, expect, it, vi } from 'vitest';
import { HttpError } from 'ra-core';
import { session } from './session';
import { testUser } from './testing/fixtures';
import type { CurrentUser } from './domain/auth/schemas';
import { authApi } from '../dataProvider/auth';
import { authProvider } from './authProvider';
import { ApiError } from '../dataProvider/httpClient';

vi.mock('../dataProvider/auth', () => ({ authApi: { me: vi.fn(), signOut: vi.fn() } }));
const api = vi.mocked(authApi);

const user: CurrentUser = { ...testUser, isAdmin: true, emailVerified: true, onboarding: null, companies: [{ _id: 'c1', name: 'Acme', role: 'admin' as const }] };
const toSignIn = { redirectTo: '/account/signin', message: false };

afterEach(() => {
  session.end();
  vi.clearAllMocks();
});

describe('authProvider', () => {
  it('checkAuth passes a signed-in user and sends anyone else to sign-in', async () => {
    api.me.mockResolvedValueOnce(user);
    await expect(authProvider.checkAuth({})).resolves.toBeUndefined();
    session.end();
    api.me.mockRejectedValueOnce(new ApiError('Authentication failed.', 401, 'UNAUTHORIZED', null, null));
    await expect(authProvider.checkAuth({})).rejects.toEqual(toSignIn);
  });

  it("getIdentity gives react-admin the signed-in user", async () => {
    api.me.mockResolvedValue(user);
    await expect(authProvider.getIdentity?.()).resolves.toEqual({
      id: 'u1',
      fullName: 'Ada Lovelace',
      avatar: undefined,
      email: 'ada@example.com',
      isAdmin: true,
    });
  });

  it('checkError ends the session on 401 only', async () => {
    api.me.mockResolvedValue(user);
    await session.refresh();
    await expect(authProvider.checkError(new HttpError('Not found.', 404))).resolves.toBeUndefined();
    expect(session.getSnapshot().user).toEqual(user);
    await expect(authProvider.checkError(new HttpError('Authentication failed.', 401))).rejects.toEqual(toSignIn);
    expect(session.getSnapshot()).toMatchObject({ state: 'ANONYMOUS', user: null, ended: 'expired' });
  });

  it('logout signs out and goes to sign-in', async () => {
    api.signOut.mockResolvedValue(null);
    await expect(authProvider.logout({})).resolves.toBe('/account/signin');
    expect(api.signOut).toHaveBeenCalled();
  });
});
