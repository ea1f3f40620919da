// @vitest-environment jsdom
// jsdom, not happy-dom: these tests need a browser's history events when the address's hash is set.
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authApi } from '../dataProvider/auth';
import { ApiError } from '../dataProvider/httpClient';
import { App } from './App';
import { peekReturnRoute, readUtmTags, RESUME_FLAG_KEY, saveReturnRoute, session } from './session';
import { testUser } from './testing/renderPage';

vi.mock('../dataProvider/auth', () => ({ authApi: { me: vi.fn(), signOut: vi.fn().mockResolvedValue(null) } }));
// The react-admin app is out of scope here: the guard decides whether it is reached at all.
vi.mock('./MainApp', () => ({ default: () => <p>main app</p> }));
const me = vi.mocked(authApi.me);
const unauthorized = () => new ApiError('Authentication failed.', 401, 'UNAUTHORIZED', null, null);
const verified = { ...testUser, emailVerified: true, onboarding: null };

/** Renders the app at `hash`; in act's async form, which lets a page that suspended render when it loads. */
async function start(hash: string) {
  window.location.hash = hash;
  await act(async () => {
    render(<App />);
  });
}
const hash = () => window.location.hash;

beforeEach(() => {
  localStorage.clear();
  vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('offline')));
});
afterEach(() => {
  cleanup();
  act(() => session.end());
  vi.clearAllMocks();
  vi.unstubAllGlobals();
});

describe('navigation guard (SPEC §2)', () => {
  it('sends a logged-out visit of a signed-in page to /loading, remembering it, and on to sign-in', async () => {
    me.mockRejectedValue(unauthorized());
    await start('#/deployments/42?tab=backups');
    await waitFor(() => expect(hash()).toBe('#/account/signin'));
    expect(peekReturnRoute()).toBe('/deployments/42?tab=backups');
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeTruthy();
    expect(screen.queryByText('main app')).toBeNull();
  });

  it('lets a session resumed from an earlier visit through to the page', async () => {
    localStorage.setItem(RESUME_FLAG_KEY, '1');
    me.mockResolvedValue(verified);
    await start('#/deployments');
    expect(await screen.findByText('main app')).toBeTruthy();
    expect(hash()).toBe('#/deployments');
  });

  it('keeps a user who must change a generated password on /profile/account', async () => {
    localStorage.setItem(RESUME_FLAG_KEY, '1');
    me.mockResolvedValue({ ...verified, mustChangePassword: true });
    await start('#/deployments');
    await waitFor(() => expect(hash()).toBe('#/profile/account'));
    expect(await screen.findByText('main app')).toBeTruthy();
  });

  it('sends a session resumed on a welcome page to /profile/account', async () => {
    localStorage.setItem(RESUME_FLAG_KEY, '1');
    me.mockResolvedValue(verified);
    await start('#/account/signin');
    await waitFor(() => expect(hash()).toBe('#/profile/account'));
    expect(await screen.findByText('main app')).toBeTruthy();
  });

  it('…or to the stored return route, once', async () => {
    localStorage.setItem(RESUME_FLAG_KEY, '1');
    saveReturnRoute('/management/team');
    me.mockResolvedValue(verified);
    await start('#/account/create');
    await waitFor(() => expect(hash()).toBe('#/management/team'));
    expect(peekReturnRoute()).toBeNull();
  });

  it('keeps a mailed link (token) on its page even for a resumed session', async () => {
    localStorage.setItem(RESUME_FLAG_KEY, '1');
    me.mockResolvedValue(verified);
    await start('#/forgot-password?resetPassword&token=abc');
    await waitFor(() => expect(session.getSnapshot().state).toBe('IN_RESUMED'));
    expect(hash()).toBe('#/forgot-password?resetPassword&token=abc');
  });

  it('sends a signed-in non-admin away from admin paths', async () => {
    localStorage.setItem(RESUME_FLAG_KEY, '1');
    me.mockResolvedValue(verified);
    await start('#/admin/companies');
    await waitFor(() => expect(hash()).toBe('#/dashboard'));
    expect(peekReturnRoute()).toBeNull();
  });

  it('lets an admin into admin paths', async () => {
    localStorage.setItem(RESUME_FLAG_KEY, '1');
    me.mockResolvedValue({ ...verified, isAdmin: true });
    await start('#/admin/companies');
    expect(await screen.findByText('main app')).toBeTruthy();
    expect(hash()).toBe('#/admin/companies');
  });

  it('keeps /signin’s query when it redirects to /account/signin', async () => {
    await start('#/signin?ref=password-reset');
    await waitFor(() => expect(hash()).toBe('#/account/signin?ref=password-reset'));
  });
});

describe('signing out', () => {
  it('leaves for / without remembering the page or passing through /loading', async () => {
    localStorage.setItem(RESUME_FLAG_KEY, '1');
    me.mockResolvedValue(verified);
    // Signed in before the page opens: no guard round trip through /loading can land after sign-out.
    await act(() => session.refresh());
    await start('#/deployments');
    expect(await screen.findByText('main app')).toBeTruthy();
    me.mockClear();
    // What the user menu does: navigate to '/' and end the session in the same tick.
    act(() => {
      window.location.hash = '#/';
      void session.signOut();
    });
    await waitFor(() => expect(hash()).toBe('#/account/create'));
    expect(peekReturnRoute()).toBeNull();
    expect(me).not.toHaveBeenCalled();
    expect(session.getSnapshot().ended).toBeNull();
  });
});

describe('session upkeep', () => {
  it('stores the utm tags of the address', async () => {
    await start('#/account/create?utm_source=newsletter&utm_campaign=spring');
    await screen.findByRole('heading', { level: 1, name: 'Create your account' });
    expect(readUtmTags()).toEqual({ utm_source: 'newsletter', utm_campaign: 'spring' });
  });

  it('sends an expired session to sign-in, remembering the page', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      localStorage.setItem(RESUME_FLAG_KEY, '1');
      me.mockResolvedValue(verified);
      await start('#/deployments');
      expect(await screen.findByText('main app')).toBeTruthy();
      me.mockRejectedValue(unauthorized());
      await act(() => vi.advanceTimersByTimeAsync(60_000));
      await waitFor(() => expect(hash()).toBe('#/account/signin?error=session-timed-out'));
      expect(peekReturnRoute()).toBe('/deployments');
    } finally {
      vi.useRealTimers();
    }
  });
});
