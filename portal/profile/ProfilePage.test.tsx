// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { session } from '../../src/session';
import { currentLocation, en, renderPage, testUser } from '../../src/testing/renderPage';
import { signInWithApi } from '../../src/testing/session';
import ProfilePage from './ProfilePage';

const open = (entry: string) => renderPage(<ProfilePage />, entry, '/profile/*');

afterEach(() => {
  cleanup();
  session.end();
  vi.unstubAllGlobals();
});

describe('profile routes (SPEC §2)', () => {
  it('/profile goes to /profile/account', async () => {
    await signInWithApi({ ...testUser, onboarding: null });
    open('/profile');
    expect(currentLocation()).toBe('/profile/account');
    expect(screen.getByRole('heading', { level: 1, name: en('titles.profile') })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: en('profile.account.heading') })).toBeTruthy();
  });

  it('an unknown section also goes to account', async () => {
    await signInWithApi({ ...testUser, onboarding: null });
    open('/profile/nope');
    expect(currentLocation()).toBe('/profile/account');
  });

  it('the section menu opens account, authentication and data, marking the current one', async () => {
    await signInWithApi({ ...testUser, onboarding: null });
    open('/profile/account');
    const nav = screen.getByRole('navigation', { name: en('profile.nav.label') });
    expect(nav).toBeTruthy();
    const tab = (key: string) => screen.getByRole('tab', { name: en(`profile.nav.${key}`) });
    expect(tab('account').getAttribute('aria-selected')).toBe('true');

    await act(async () => void fireEvent.click(tab('authentication')));
    expect(currentLocation()).toBe('/profile/authentication');
    expect(tab('authentication').getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('heading', { level: 2, name: en('profile.twoFactor.heading') })).toBeTruthy();

    await act(async () => void fireEvent.click(tab('data')));
    expect(currentLocation()).toBe('/profile/data');
    expect(screen.getByRole('heading', { level: 2, name: en('profile.data.exportHeading') })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: en('profile.data.deleteHeading') })).toBeTruthy();
  });
});
