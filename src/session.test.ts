// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../dataProvider/httpClient';
import { testUser } from './testing/fixtures';
import type { CurrentUser } from './domain/auth/schemas';
import {
  captureUtmTags,
  createSessionStore,
  peekReturnRoute,
  readUtmTags,
  RESUME_FLAG_KEY,
  saveReturnRoute,
  takeReturnRoute,
  type SessionState,
} from './session';

const user: CurrentUser = { ...testUser, emailVerified: true, onboarding: null };

const unauthorized = () => new ApiError('Authentication failed.', 401, 'UNAUTHORIZED', null, null);

function setup() {
  const api = { me: vi.fn<() => Promise<CurrentUser>>(), signOut: vi.fn<() => Promise<null>>().mockResolvedValue(null) };
  const store = createSessionStore(api, 60_000);
  const states: SessionState[] = [];
  store.subscribe(() => states.push(store.getSnapshot().state));
  return { api, store, states };
}

beforeEach(() => localStorage.clear());
afterEach(() => vi.useRealTimers());

describe('session store', () => {
  it('starts anonymous', () => {
    const { store } = setup();
    expect(store.getSnapshot()).toMatchObject({ state: 'ANONYMOUS', user: null, error: null });
  });

  it('auto refresh: LOADING_AUTO then IN_RESUMED, stores the user and sets the resume flag', async () => {
    const { api, store, states } = setup();
    api.me.mockResolvedValue(user);
    await expect(store.refresh('auto')).resolves.toEqual(user);
    expect(states).toEqual(['LOADING_AUTO', 'IN_RESUMED']);
    expect(store.getSnapshot().user).toEqual(user);
    expect(localStorage.getItem(RESUME_FLAG_KEY)).toBe('1');
    store.end();
  });

  it('manual refresh: LOADING_MANUAL then IN_MANUAL', async () => {
    const { api, store, states } = setup();
    api.me.mockResolvedValue(user);
    await store.refresh('manual');
    expect(states).toEqual(['LOADING_MANUAL', 'IN_MANUAL']);
    store.end();
  });

  it('shares one request between concurrent refreshes, upgrading to manual', async () => {
    const { api, store } = setup();
    api.me.mockResolvedValue(user);
    const a = store.refresh('auto');
    const b = store.refresh('manual');
    expect(await a).toEqual(await b);
    expect(api.me).toHaveBeenCalledTimes(1);
    expect(store.getSnapshot().state).toBe('IN_MANUAL');
    store.end();
  });

  it('failure clears the user, keeps the error and removes the flag', async () => {
    const { api, store } = setup();
    api.me.mockResolvedValueOnce(user);
    await store.refresh();
    const error = new ApiError('The service is not available right now.', 503, 'SERVICE_UNAVAILABLE', null, null);
    api.me.mockRejectedValueOnce(error);
    store.end();
    await expect(store.refresh()).resolves.toBeNull();
    expect(store.getSnapshot()).toMatchObject({ state: 'ERROR', user: null, error });
    expect(localStorage.getItem(RESUME_FLAG_KEY)).toBeNull();
  });

  it("'Authentication failed.' ends the session as ANONYMOUS", async () => {
    const { api, store } = setup();
    api.me.mockRejectedValue(unauthorized());
    await store.refresh();
    expect(store.getSnapshot().state).toBe('ANONYMOUS');
    expect(store.getSnapshot().error?.message).toBe('Authentication failed.');
  });

  it('handleError ends a signed-in session only on UNAUTHORIZED', async () => {
    const { api, store } = setup();
    api.me.mockResolvedValue(user);
    await store.refresh();
    expect(store.handleError(new ApiError('Not found.', 404, 'NOT_FOUND', null, null))).toBe(false);
    expect(store.getSnapshot().state).toBe('IN_RESUMED');
    const expired = vi.fn();
    store.onExpired(expired);
    expect(store.handleError(unauthorized())).toBe(true);
    expect(store.getSnapshot()).toMatchObject({ state: 'ANONYMOUS', user: null, ended: 'expired' });
    expect(expired).toHaveBeenCalledTimes(1);
    // A new attempt starts afresh.
    api.me.mockRejectedValue(unauthorized());
    await store.refresh();
    expect(store.getSnapshot().ended).toBeNull();
  });

  it('signOut calls the API and clears the user and the flag, even when the call fails', async () => {
    const { api, store } = setup();
    api.me.mockResolvedValue(user);
    await store.refresh();
    api.signOut.mockRejectedValue(new Error('offline'));
    await store.signOut();
    expect(api.signOut).toHaveBeenCalled();
    expect(store.getSnapshot()).toMatchObject({ state: 'ANONYMOUS', user: null, ended: 'signOut' });
    expect(localStorage.getItem(RESUME_FLAG_KEY)).toBeNull();
    store.clearEnded();
    expect(store.getSnapshot().ended).toBeNull();
  });

  it('drops the late answer of a fetch made before sign-out', async () => {
    const { api, store } = setup();
    let answer: (u: CurrentUser) => void = () => undefined;
    api.me.mockReturnValue(new Promise((resolve) => (answer = resolve)));
    const pending = store.refresh();
    await store.signOut();
    answer(user);
    await expect(pending).resolves.toBeNull();
    expect(store.getSnapshot().state).toBe('ANONYMOUS');
  });

  it('resume only fetches when the resume flag is set', async () => {
    const { api, store } = setup();
    api.me.mockResolvedValue(user);
    await expect(store.resume()).resolves.toBeNull();
    expect(api.me).not.toHaveBeenCalled();
    localStorage.setItem(RESUME_FLAG_KEY, '1');
    await expect(store.resume()).resolves.toEqual(user);
    expect(store.getSnapshot().state).toBe('IN_RESUMED');
    store.end();
  });

  it('refreshes every 60 s while signed in and reports expiry on failure', async () => {
    vi.useFakeTimers();
    const { api, store } = setup();
    const expired = vi.fn();
    store.onExpired(expired);
    api.me.mockResolvedValue(user);
    await store.refresh();
    expect(api.me).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(api.me).toHaveBeenCalledTimes(2);
    expect(store.getSnapshot().state).toBe('IN_RESUMED');
    api.me.mockRejectedValue(unauthorized());
    await vi.advanceTimersByTimeAsync(60_000);
    expect(expired).toHaveBeenCalledTimes(1);
    expect(store.getSnapshot()).toMatchObject({ state: 'ANONYMOUS', ended: 'expired' });
    // Signed out: the timer stops.
    await vi.advanceTimersByTimeAsync(180_000);
    expect(api.me).toHaveBeenCalledTimes(3);
  });

  it('a refresh while signed in keeps the signed-in state during the fetch', async () => {
    const { api, store, states } = setup();
    api.me.mockResolvedValue(user);
    await store.refresh();
    states.length = 0;
    const pending = store.refresh('auto');
    expect(store.getSnapshot().state).toBe('IN_RESUMED');
    await pending;
    expect(states).toEqual(['IN_RESUMED']);
    store.end();
  });
});

describe('return route', () => {
  it('is read once', () => {
    saveReturnRoute('/deployments/42?tab=backups');
    expect(peekReturnRoute()).toBe('/deployments/42?tab=backups');
    expect(takeReturnRoute()).toBe('/deployments/42?tab=backups');
    expect(takeReturnRoute()).toBeNull();
  });

  it('refuses anything but an in-app path', () => {
    for (const path of ['//evil.example/x', 'https://evil.example', 'javascript:alert(1)', '/\\evil.example']) {
      saveReturnRoute(path);
      expect(peekReturnRoute()).toBeNull();
    }
  });
});

describe('utm tags', () => {
  it('stores the utm tags of a query and replaces them on a new campaign', () => {
    captureUtmTags('?utm_source=news&utm_medium=mail&utm_campaign=spring&other=1');
    expect(readUtmTags()).toEqual({ utm_source: 'news', utm_medium: 'mail', utm_campaign: 'spring' });
    captureUtmTags('?page=2');
    expect(readUtmTags()).toEqual({ utm_source: 'news', utm_medium: 'mail', utm_campaign: 'spring' });
    captureUtmTags('?utm_source=ads');
    expect(readUtmTags()).toEqual({ utm_source: 'ads' });
  });

  it('survives a damaged stored value', () => {
    localStorage.setItem('beacon.utm', '{not json');
    expect(readUtmTags()).toEqual({});
  });
});
