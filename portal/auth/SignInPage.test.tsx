// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { authApi } from '../../dataProvider/auth';
import { ApiError } from '../../dataProvider/httpClient';
import { currentLocation, en, fieldError, renderPage, testUser, typeInto } from '../../src/testing/renderPage';
import SignInPage from './SignInPage';
import { authForms } from './authFormsLoader';

vi.mock('../../dataProvider/auth', () => ({ authApi: { signIn: vi.fn(), requestMagicLink: vi.fn() } }));
const signIn = vi.mocked(authApi.signIn);
const requestMagicLink = vi.mocked(authApi.requestMagicLink);

const apiError = (code: 'TWO_FACTOR_REQUIRED' | 'TWO_FACTOR_FAILED' | 'ACCOUNT_LOCKED' | 'INVALID_CREDENTIALS', status = 401) =>
  new ApiError(en(`errors.${code}`), status, code, null, null);

const click = (name: string) => act(async () => void fireEvent.click(screen.getByRole('button', { name })));
const open = (entry = '/account/signin') => renderPage(<SignInPage />, entry, '/account/signin');

async function signInWith(email = 'ada@example.com', password = 'whatever') {
  typeInto('Email', email);
  typeInto('Password', password);
  await click('Sign in');
}

// The forms' checks load in steps after the page (authFormsLoader.ts); in before any test
// types, and before a test's fake timers would hold them up.
beforeAll(() => authForms);

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

describe('sign-in rules (SPEC §5)', () => {
  it.each([
    ['Email', '', 'validation.required'],
    ['Email', 'nope', 'validation.email'],
    ['Email', `${'a'.repeat(320)}@x.io`, 'validation.emailMax'],
    ['Password', '', 'validation.required'],
  ])('%s = %j shows %s', async (label, value, key) => {
    open();
    typeInto(label, value);
    await waitFor(() => expect(fieldError(label)).toBe(en(key)));
  });

  it('does not call the API with broken fields', async () => {
    open();
    await click('Sign in');
    expect(fieldError('Email')).toBe(en('validation.required'));
    expect(signIn).not.toHaveBeenCalled();
  });
});

describe('outcomes (SPEC §4 Sign-in)', () => {
  it('goes to /loading?referrer=login on success', async () => {
    signIn.mockResolvedValue(testUser);
    open();
    await signInWith('Ada@Example.com', 'secret');
    expect(signIn).toHaveBeenCalledWith({ email: 'ada@example.com', password: 'secret', authCode: undefined });
    await waitFor(() => expect(currentLocation()).toBe('/loading?referrer=login'));
  });

  it("says 'Login to continue' with the target and goes to /redirect with it", async () => {
    signIn.mockResolvedValue(testUser);
    open('/account/signin?redirect=https%3A%2F%2Fmy.beacon.example%2Fdashboard');
    expect(screen.getByText(en('auth.signIn.loginToContinue', { target: 'my.beacon.example' }))).toBeTruthy();
    await signInWith();
    await waitFor(() => expect(currentLocation()).toBe(`/redirect?server_url=${encodeURIComponent('https://my.beacon.example/dashboard')}`));
  });

  it('shows the unlock link only after a locked answer', async () => {
    open();
    expect(screen.queryByRole('link', { name: 'Request an unlock link' })).toBeNull();
    signIn.mockRejectedValueOnce(apiError('INVALID_CREDENTIALS'));
    await signInWith();
    expect((await screen.findByRole('alert')).textContent).toBe(en('errors.INVALID_CREDENTIALS'));
    expect(screen.queryByRole('link', { name: 'Request an unlock link' })).toBeNull();
    signIn.mockRejectedValueOnce(apiError('ACCOUNT_LOCKED', 423));
    await click('Sign in');
    const link = await screen.findByRole('link', { name: 'Request an unlock link' });
    expect(link.getAttribute('href')).toBe('/request-unlock');
    expect(screen.getByRole('alert').textContent).toBe(en('errors.ACCOUNT_LOCKED'));
  });

  it('asks for the code silently on 2FA required; sign-in stays disabled until 6 digits', async () => {
    signIn.mockRejectedValueOnce(apiError('TWO_FACTOR_REQUIRED'));
    open();
    await signInWith();
    const codeInput = await screen.findByLabelText('Authentication code');
    expect(screen.queryByRole('alert')).toBeNull();
    const submit = screen.getByRole('button', { name: 'Sign in' }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    fireEvent.change(codeInput, { target: { value: '12345' } });
    expect(submit.disabled).toBe(true);
    fireEvent.change(codeInput, { target: { value: '12a3-45' } });
    expect((codeInput as HTMLInputElement).value).toBe('12345');
    fireEvent.change(codeInput, { target: { value: '123456' } });
    expect(submit.disabled).toBe(false);

    signIn.mockRejectedValueOnce(apiError('TWO_FACTOR_FAILED'));
    await click('Sign in');
    expect((await screen.findByRole('alert')).textContent).toBe(en('errors.TWO_FACTOR_FAILED'));
    expect(signIn).toHaveBeenLastCalledWith({ email: 'ada@example.com', password: 'whatever', authCode: '123456' });
    expect((screen.getByLabelText('Authentication code') as HTMLInputElement).value).toBe('');

    signIn.mockResolvedValueOnce(testUser);
    fireEvent.change(screen.getByLabelText('Authentication code'), { target: { value: '654321' } });
    await click('Sign in');
    await waitFor(() => expect(currentLocation()).toBe('/loading?referrer=login'));
  });

  it("'Go back' returns to the credentials and clears the code", async () => {
    signIn.mockRejectedValue(apiError('TWO_FACTOR_REQUIRED'));
    open();
    await signInWith();
    fireEvent.change(await screen.findByLabelText('Authentication code'), { target: { value: '123456' } });
    await click('Go back');
    expect(screen.getByLabelText('Email')).toBeTruthy();
    await click('Sign in');
    expect((screen.getByLabelText('Authentication code') as HTMLInputElement).value).toBe('');
  });
});

describe('notices from the query', () => {
  it.each([
    ['?ref=unlocked', 'auth.signIn.unlocked'],
    ['?ref=unlock-failed', 'auth.signIn.unlockFailed'],
    ['?ref=password-reset', 'auth.signIn.passwordReset'],
    ['?error=magic-link-invalid', 'errors.magicLinkInvalid'],
  ])('%s shows %s', (query, key) => {
    open(`/account/signin${query}`);
    expect(screen.getByText(en(key))).toBeTruthy();
  });

  it('ignores unknown values', () => {
    open('/account/signin?error=<b>hi</b>&ref=whatever');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText('<b>hi</b>')).toBeNull();
  });
});

describe('magic link', () => {
  it('mails a sign-in link to the typed email and says so', async () => {
    requestMagicLink.mockResolvedValue(null);
    open();
    typeInto('Email', 'Ada@Example.com');
    await click('Email me a sign-in link');
    expect(requestMagicLink).toHaveBeenCalledWith({ email: 'ada@example.com' });
    expect(await screen.findByText(en('auth.signIn.magicLinkSent', { email: 'ada@example.com' }))).toBeTruthy();
  });

  it('needs a valid email first', async () => {
    open();
    typeInto('Email', 'nope');
    await click('Email me a sign-in link');
    expect(requestMagicLink).not.toHaveBeenCalled();
    expect(fieldError('Email')).toBe(en('validation.email'));
  });
});

describe('links', () => {
  it('has forgot-password and create-account links', () => {
    open();
    expect(screen.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe('/forgot-password');
    expect(screen.getByRole('link', { name: 'Create an account' }).getAttribute('href')).toBe('/account/create');
  });
});
