import { useSyncExternalStore } from 'react';
import { authApi } from '../dataProvider/auth';
import { TIMINGS } from './domain/constants';
import type { CurrentUser } from './domain/auth/schemas';

/**
 * The signed-in user store (SPEC §3 Stores, §4 Session). LOADING_AUTO/IN_RESUMED are a session
 * picked up from an earlier visit; LOADING_MANUAL/IN_MANUAL follow a sign-in made in this tab.
 * Kept free of react-admin: the front door's navigation guard reads it.
 */
export type SessionState = 'ANONYMOUS' | 'LOADING_AUTO' | 'LOADING_MANUAL' | 'IN_RESUMED' | 'IN_MANUAL' | 'ERROR';
export type RefreshMode = 'auto' | 'manual';
/** Why the last session ended while in use: signed out here, or lost (refresh failed, 401). */
export type SessionEnd = 'signOut' | 'expired' | null;

export interface Session {
  state: SessionState;
  user: CurrentUser | null;
  /** The error of the last failed fetch, kept after the user is cleared (SPEC §4). */
  error: Error | null;
  /** Date.now() of the last successful fetch; 0 without a user. */
  fetchedAt: number;
  /** Cleared by the shell once the user is on another page, so only the page it ended on sees it. */
  ended: SessionEnd;
}

export const RESUME_FLAG_KEY = 'beacon.session.resume';
export const RETURN_ROUTE_KEY = 'beacon.returnRoute';
export const UTM_KEY = 'beacon.utm';

export const isSignedIn = (s: Session) => s.state === 'IN_RESUMED' || s.state === 'IN_MANUAL';

/** True for the API's 'Authentication failed.' answer, which ends a session. */
export function isUnauthorized(error: unknown): boolean {
  const e = error as { code?: unknown; status?: unknown } | null;
  return e?.code === 'UNAUTHORIZED' || e?.status === 401;
}

/** localStorage, or null where there is none (server-side imports, privacy modes that throw). */
function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** Writes (or, with null, removes) a key; a full or blocked storage only loses the hint. */
function remember(key: string, value: string | null): void {
  try {
    if (value === null) storage()?.removeItem(key);
    else storage()?.setItem(key, value);
  } catch {
    // Nothing to do: these keys are conveniences, never the session itself.
  }
}

const toError = (e: unknown) => (e instanceof Error ? e : new Error(String(e)));

type SessionCalls = Pick<typeof authApi, 'me' | 'signOut'>;

export function createSessionStore(api: SessionCalls, refreshMs: number = TIMINGS.userRefreshMs) {
  let snapshot: Session = { state: 'ANONYMOUS', user: null, error: null, fetchedAt: 0, ended: null };
  const listeners = new Set<() => void>();
  const expiredHandlers = new Set<() => void>();
  let inFlight: Promise<CurrentUser | null> | null = null;
  let pendingMode: RefreshMode = 'auto';
  // Bumped whenever the session ends, so the late answer of an older fetch cannot revive it.
  let generation = 0;
  let timer: ReturnType<typeof setInterval> | null = null;

  function set(next: Partial<Session>) {
    snapshot = { ...snapshot, ...next };
    const on = isSignedIn(snapshot);
    if (on && !timer) timer = setInterval(poll, refreshMs);
    if (!on && timer) {
      clearInterval(timer);
      timer = null;
    }
    for (const listener of listeners) listener();
  }

  function fail(error: unknown, polling = false) {
    generation++;
    remember(RESUME_FLAG_KEY, null);
    const err = toError(error);
    set({ state: isUnauthorized(err) ? 'ANONYMOUS' : 'ERROR', user: null, error: err, fetchedAt: 0, ended: polling ? 'expired' : null });
  }

  function succeed(user: CurrentUser) {
    remember(RESUME_FLAG_KEY, '1');
    const state: SessionState = pendingMode === 'manual' ? 'IN_MANUAL' : isSignedIn(snapshot) ? snapshot.state : 'IN_RESUMED';
    set({ state, user, error: null, fetchedAt: Date.now(), ended: null });
  }

  /** One /auth/me at a time: later callers share the answer of the request in flight. */
  function fetchUser(polling = false): Promise<CurrentUser | null> {
    const gen = generation;
    const request = api.me().then(
      (user): CurrentUser | null => {
        if (gen !== generation) return null;
        succeed(user);
        return user;
      },
      (error: unknown) => {
        if (gen !== generation) return null;
        fail(error, polling);
        if (polling) for (const handler of expiredHandlers) handler();
        return null;
      },
    );
    inFlight = request;
    void request.then(() => {
      if (inFlight === request) inFlight = null;
    });
    return request;
  }

  /** Fetches the current user. A refresh while signed in keeps the signed-in state meanwhile. */
  function refresh(mode: RefreshMode = 'auto'): Promise<CurrentUser | null> {
    if (inFlight) {
      if (mode === 'manual') {
        pendingMode = 'manual';
        if (snapshot.state === 'LOADING_AUTO') set({ state: 'LOADING_MANUAL' });
      }
      return inFlight;
    }
    pendingMode = mode;
    if (!isSignedIn(snapshot)) set({ state: mode === 'manual' ? 'LOADING_MANUAL' : 'LOADING_AUTO', ended: null });
    return fetchUser();
  }

  /** The 60-second refresh while signed in; losing the session sends the user to sign-in. */
  function poll() {
    if (inFlight) return;
    pendingMode = 'auto';
    void fetchUser(true);
  }

  /** Ends the session locally, e.g. on an 'Authentication failed.' answer from any call. */
  function end(error: Error | null = null, ended: SessionEnd = null) {
    generation++;
    inFlight = null;
    remember(RESUME_FLAG_KEY, null);
    set({ state: 'ANONYMOUS', user: null, error, fetchedAt: 0, ended });
  }

  return {
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    getSnapshot: () => snapshot,
    refresh,
    end,
    /** Picks up the session of an earlier visit, when the resume flag says there was one. */
    resume(): Promise<CurrentUser | null> {
      if (inFlight) return inFlight;
      if (snapshot.state !== 'ANONYMOUS' || !storage()?.getItem(RESUME_FLAG_KEY)) return Promise.resolve(snapshot.user);
      return refresh('auto');
    },
    /** The signed-in user, fetching it when there is none yet. */
    current(): Promise<CurrentUser | null> {
      return isSignedIn(snapshot) ? Promise.resolve(snapshot.user) : refresh('auto');
    },
    /** Ends the session on an 'Authentication failed.' error; true when it did. */
    handleError(error: unknown): boolean {
      if (!isUnauthorized(error)) return false;
      const wasIn = isSignedIn(snapshot);
      end(toError(error), wasIn ? 'expired' : null);
      if (wasIn) for (const handler of expiredHandlers) handler();
      return true;
    },
    /** Ends the session at once (so the UI never shows a half-signed-out state), then tells the API. */
    async signOut(): Promise<void> {
      end(null, 'signOut');
      try {
        await api.signOut();
      } catch {
        // Signed out locally either way; a cookie the API kept fails its next /auth/me.
      }
    },
    /** Forgets why the last session ended, once the user has moved on from that page. */
    clearEnded() {
      if (snapshot.ended) set({ ended: null });
    },
    onExpired(handler: () => void) {
      expiredHandlers.add(handler);
      return () => void expiredHandlers.delete(handler);
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;

export const session = createSessionStore(authApi);

export function useSession(): Session {
  // The server snapshot is the same store: the build prerenders the first screen as a visitor sees it.
  return useSyncExternalStore(session.subscribe, session.getSnapshot, session.getSnapshot);
}

// --- Return route: where a logged-out visitor was going (SPEC §2 navigation guard). ---

/** Only in-app paths: never another origin ('//host') or a scheme. */
const isAppPath = (path: string) => path.startsWith('/') && !path.startsWith('//') && !path.includes('\\');

export function saveReturnRoute(path: string): void {
  if (isAppPath(path)) remember(RETURN_ROUTE_KEY, path);
}

export function peekReturnRoute(): string | null {
  const path = storage()?.getItem(RETURN_ROUTE_KEY) ?? null;
  return path && isAppPath(path) ? path : null;
}

/** Reads and forgets the return route, so it is followed once. */
export function takeReturnRoute(): string | null {
  const path = peekReturnRoute();
  remember(RETURN_ROUTE_KEY, null);
  return path;
}

// --- utm tags (SPEC §4 Misc): the campaign a visitor came from. ---

export const UTM_PARAMS = ['utm_source', 'utm_medium', 'utm_campaign'] as const;
export type UtmTags = Partial<Record<(typeof UTM_PARAMS)[number], string>>;

/** Stores the utm tags of a query; a visit with new tags replaces the old set. */
export function captureUtmTags(search: string): void {
  const query = new URLSearchParams(search);
  const tags: UtmTags = {};
  for (const key of UTM_PARAMS) {
    const value = query.get(key)?.trim();
    if (value) tags[key] = value.slice(0, 200);
  }
  if (Object.keys(tags).length) remember(UTM_KEY, JSON.stringify(tags));
}

export function readUtmTags(): UtmTags {
  try {
    const parsed: unknown = JSON.parse(storage()?.getItem(UTM_KEY) ?? '{}');
    if (!parsed || typeof parsed !== 'object') return {};
    const record = parsed as Record<string, unknown>;
    return Object.fromEntries(UTM_PARAMS.flatMap((k) => (typeof record[k] === 'string' ? [[k, record[k]]] : [])));
  } catch {
    return {};
  }
}
