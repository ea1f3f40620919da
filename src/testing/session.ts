/** Test helper: puts a user into the real session store, the way a sign-in would. */
import type { CurrentUser } from '../domain/auth/schemas';
import { session } from '../session';
import { mockRoutes, okReply, type ApiRoutes } from './fetchMock';

/**
 * Signs `user` in through GET /auth/me on the fake API, then serves `routes` (which may also
 * answer /auth/me, e.g. with the updated user after a save). Call session.end() afterwards.
 */
export async function signInWithApi(user: CurrentUser, routes: ApiRoutes = {}) {
  const api = mockRoutes({ 'GET /auth/me': okReply(user), ...routes });
  await session.refresh('manual');
  api.calls.length = 0;
  return api;
}
