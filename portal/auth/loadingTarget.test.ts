import { describe, expect, it, vi } from 'vitest';
import type { CurrentUser } from '../../src/domain/auth/schemas';
import { loadingTarget } from './loadingTarget';

const user = { _id: 'u1', onboarding: null } as CurrentUser;
const q = (referrer: string | null = null, cid: string | null = null, pid: string | null = null) => ({ referrer, cid, pid });

describe('loadingTarget', () => {
  it('sends a visitor without a session to sign-in', () => {
    expect(loadingTarget(null, q('login'), () => '/deployments')).toBe('/account/signin');
  });

  it('sends to verification after sign-up or while the email is unverified', () => {
    expect(loadingTarget(user, q('verification'), () => null)).toBe('/account/verify');
    expect(loadingTarget({ ...user, onboarding: 'verify' }, q('login'), () => null)).toBe('/account/verify');
  });

  it('sends a user who must change a generated password to the account page first, keeping the return route', () => {
    const returnRoute = vi.fn(() => '/admin/users');
    expect(loadingTarget({ ...user, mustChangePassword: true, onboarding: 'company' }, q('login'), returnRoute)).toBe('/profile/account');
    expect(returnRoute).not.toHaveBeenCalled();
  });

  it('sends company onboarding to account/company, keeping the return route', () => {
    const returnRoute = vi.fn(() => '/deployments');
    expect(loadingTarget({ ...user, onboarding: 'company' }, q('login'), returnRoute)).toBe('/account/company');
    expect(returnRoute).not.toHaveBeenCalled();
  });

  it('lets a user without a company go back to the invitation they signed in for: joining gives them one', () => {
    const invitation = '/account/invited?token=abc';
    const take = vi.fn(() => invitation);
    expect(loadingTarget({ ...user, onboarding: 'company' }, q('login'), take, () => invitation)).toBe(invitation);
    expect(take).toHaveBeenCalledOnce();
    const other = vi.fn(() => '/deployments');
    expect(loadingTarget({ ...user, onboarding: 'company' }, q('login'), other, () => '/deployments')).toBe('/account/company');
    expect(other).not.toHaveBeenCalled();
  });

  it('lets a platform admin without a company reload or bookmark the admin area; other pages still ask for a company', () => {
    const admin = { ...user, isAdmin: true, onboarding: 'company' as const };
    const take = vi.fn(() => '/admin/companies?filter=%7B%7D');
    expect(loadingTarget(admin, q('login'), take, () => '/admin/companies?filter=%7B%7D')).toBe('/admin/companies?filter=%7B%7D');
    expect(take).toHaveBeenCalledOnce();
    expect(loadingTarget(admin, q('login'), () => '/admin', () => '/admin')).toBe('/admin');
    const other = vi.fn(() => '/deployments');
    expect(loadingTarget(admin, q('login'), other, () => '/deployments')).toBe('/account/company');
    expect(other).not.toHaveBeenCalled();
    // Not an admin: the admin area is no way around naming a company.
    expect(loadingTarget({ ...user, onboarding: 'company' }, q('login'), () => '/admin/users', () => '/admin/users')).toBe('/account/company');
    expect(loadingTarget(admin, q('login'), () => '/administration', () => '/administration')).toBe('/account/company');
  });

  it('opens the wizard with continue for a saved pre-login order, once the company exists (SPEC §4)', () => {
    expect(loadingTarget(user, q('login'), () => '/deployments', () => null, true)).toBe('/server-builder/choose-extras?continue=1');
    expect(loadingTarget({ ...user, onboarding: 'company' }, q('login'), () => null, () => null, true)).toBe('/account/company');
    expect(loadingTarget({ ...user, onboarding: 'verify' }, q('login'), () => null, () => null, true)).toBe('/account/verify');
  });

  it('prefers the stored return route, then the project dashboard, then /dashboard', () => {
    expect(loadingTarget(user, q('login', 'c1', 'p1'), () => '/deployments/7')).toBe('/deployments/7');
    expect(loadingTarget(user, q('filter', 'c1', 'p1'), () => null)).toBe('/c/c1/p/p1/dashboard');
    expect(loadingTarget(user, q('login', 'c1/../x', 'p1'), () => null)).toBe('/dashboard');
    expect(loadingTarget(user, q(), () => null)).toBe('/dashboard');
  });
});
