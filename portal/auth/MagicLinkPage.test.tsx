// @vitest-environment happy-dom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authApi } from '../../dataProvider/auth';
import { ApiError } from '../../dataProvider/httpClient';
import { session } from '../../src/session';
import { currentLocation, en, renderPage, testUser } from '../../src/testing/renderPage';
import MagicLinkPage from './MagicLinkPage';

vi.mock('../../dataProvider/auth', () => ({ authApi: { signInWithMagicLink: vi.fn(), me: vi.fn(), signOut: vi.fn() } }));
const api = vi.mocked(authApi);

const open = (query: string) => renderPage(<MagicLinkPage />, `/account/magic-link${query}`, '/account/magic-link');

afterEach(() => {
  cleanup();
  session.end();
  vi.clearAllMocks();
});

describe('magic-link page', () => {
  it('asks the visitor to wait', () => {
    api.signInWithMagicLink.mockReturnValue(new Promise(() => undefined));
    open('?token=wait');
    expect(screen.getByText('Please wait, you’ll be navigated in seconds')).toBeTruthy();
  });

  it('sends a visit without a token to sign-in', async () => {
    open('');
    await waitFor(() => expect(currentLocation()).toBe('/account/signin'));
    expect(api.signInWithMagicLink).not.toHaveBeenCalled();
  });

  it('signs in, refreshes the user and goes to /loading?referrer=login', async () => {
    api.signInWithMagicLink.mockResolvedValue(testUser);
    api.me.mockResolvedValue(testUser);
    open('?token=good');
    await waitFor(() => expect(currentLocation()).toBe('/loading?referrer=login'));
    expect(api.signInWithMagicLink).toHaveBeenCalledTimes(1);
    expect(api.signInWithMagicLink).toHaveBeenCalledWith('good');
    expect(session.getSnapshot()).toMatchObject({ state: 'IN_MANUAL', user: testUser });
  });

  it('sends an invalid link to sign-in with the invalid-link notice', async () => {
    api.signInWithMagicLink.mockRejectedValue(new ApiError(en('errors.TOKEN_INVALID'), 400, 'TOKEN_INVALID', null, null));
    open('?token=used');
    await waitFor(() => expect(currentLocation()).toBe('/account/signin?error=magic-link-invalid'));
    expect(api.me).not.toHaveBeenCalled();
  });
});
