// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authApi } from '../../dataProvider/auth';
import { ApiError } from '../../dataProvider/httpClient';
import { session } from '../../src/session';
import { currentLocation, en, renderPage, testUser } from '../../src/testing/renderPage';
import VerifyPage from './VerifyPage';

vi.mock('../../dataProvider/auth', () => ({ authApi: { verify: vi.fn(), resendVerification: vi.fn(), me: vi.fn(), signOut: vi.fn() } }));
const api = vi.mocked(authApi);

const open = (query = '') => renderPage(<VerifyPage />, `/account/verify${query}`, '/account/verify');

afterEach(() => {
  cleanup();
  session.end();
  vi.clearAllMocks();
});

describe('with the mailed token', () => {
  it('verifies, refreshes the user and goes to /loading?referrer=login', async () => {
    api.verify.mockResolvedValue({ ...testUser, emailVerified: true, onboarding: null });
    api.me.mockResolvedValue({ ...testUser, emailVerified: true, onboarding: null });
    open('?token=t1');
    await waitFor(() => expect(currentLocation()).toBe('/loading?referrer=login'));
    expect(api.verify).toHaveBeenCalledWith('t1');
    expect(session.getSnapshot().state).toBe('IN_MANUAL');
  });

  it("shows the API's message when the link does not work", async () => {
    api.verify.mockRejectedValue(new ApiError(en('errors.TOKEN_INVALID'), 400, 'TOKEN_INVALID', null, null));
    open('?token=t2');
    expect((await screen.findByRole('alert')).textContent).toBe(en('errors.TOKEN_INVALID'));
  });
});

describe('without a token', () => {
  it('shows where the link went and resends it', async () => {
    api.me.mockResolvedValue(testUser);
    api.resendVerification.mockResolvedValue(null);
    open();
    expect(await screen.findByText(en('auth.verify.sent', { email: 'ada@example.com' }))).toBeTruthy();
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Send a new link' })));
    expect(api.resendVerification).toHaveBeenCalled();
    expect(await screen.findByText(en('auth.verify.resent', { email: 'ada@example.com' }))).toBeTruthy();
  });

  it("shows the API's 'wait 2 minutes' answer on 429", async () => {
    api.me.mockResolvedValue(testUser);
    api.resendVerification.mockRejectedValue(new ApiError(en('errors.VERIFICATION_ALREADY_SENT'), 429, 'VERIFICATION_ALREADY_SENT', null, null));
    open();
    const resend = await screen.findByRole('button', { name: 'Send a new link' });
    await act(async () => void fireEvent.click(resend));
    expect((await screen.findByRole('alert')).textContent).toBe(en('errors.VERIFICATION_ALREADY_SENT'));
  });

  it('sends a visitor without a session to sign-in', async () => {
    api.me.mockRejectedValue(new ApiError('Authentication failed.', 401, 'UNAUTHORIZED', null, null));
    open();
    await waitFor(() => expect(currentLocation()).toBe('/account/signin'));
  });
});
