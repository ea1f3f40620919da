import type { CurrentUser } from '../../src/domain/auth/schemas';

export interface LoadingQuery {
  /** filter, verification or login (SPEC §2); filter and login take the default way. */
  referrer: string | null;
  cid: string | null;
  pid: string | null;
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Where /loading sends the user once the session is known. `returnRoute` is only called (and so
 * only spent) when it is the answer.
 */
export function loadingTarget(user: CurrentUser | null, query: LoadingQuery, returnRoute: () => string | null, peekReturnRoute: () => string | null = () => null, completeSetup = false): string {
  if (!user) return '/account/signin';
  // A generated first-admin password: the API refuses everything else until it is changed.
  if (user.mustChangePassword) return '/profile/account';
  if (query.referrer === 'verification' || user.onboarding === 'verify') return '/account/verify';
  // The return route is kept for after the company exists, unless it is an invitation: joining
  // one is how this user gets a company.
  if (user.onboarding === 'company') {
    const next = peekReturnRoute();
    if (next?.startsWith('/account/invited?')) return returnRoute() ?? '/account/company';
    // A platform admin needs no company for the admin area: a reload or bookmark of it lands there.
    if (user.isAdmin && (next === '/admin' || next?.startsWith('/admin/') || next?.startsWith('/admin?'))) return returnRoute() ?? '/admin';
    return '/account/company';
  }
  // A visitor who ordered before signing up: the wizard submits the saved order (SPEC §4 continue).
  if (completeSetup) return '/server-builder/choose-extras?continue=1';
  const scoped = query.cid && query.pid && ID.test(query.cid) && ID.test(query.pid) ? `/c/${query.cid}/p/${query.pid}/dashboard` : null;
  return returnRoute() ?? scoped ?? '/dashboard';
}
