// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { authApi } from '../../dataProvider/auth';
import { ApiError } from '../../dataProvider/httpClient';
import { currentLocation, en, fieldError, renderPage, typeInto } from '../../src/testing/renderPage';
import ForgotPasswordPage from './ForgotPasswordPage';
import { authForms } from './authFormsLoader';

vi.mock('../../dataProvider/auth', () => ({ authApi: { forgotPassword: vi.fn(), verifyResetToken: vi.fn(), resetPassword: vi.fn() } }));
const api = vi.mocked(authApi);

const open = (query = '') => renderPage(<ForgotPasswordPage />, `/forgot-password${query}`, '/forgot-password');
const click = (name: string) => act(async () => void fireEvent.click(screen.getByRole('button', { name })));

// The forms' checks load in steps after the page (authFormsLoader.ts); in before any test
// types, and before a test's fake timers would hold them up.
beforeAll(() => authForms);

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

describe('getEmail step', () => {
  it.each([
    ['', 'validation.required'],
    ['nope', 'validation.email'],
    [`${'a'.repeat(320)}@x.io`, 'validation.emailMax'],
  ])('email %j shows %s', async (value, key) => {
    open();
    typeInto('Email', value);
    await waitFor(() => expect(fieldError('Email')).toBe(en(key)));
  });

  it('sends the link and shows the mailSent step', async () => {
    api.forgotPassword.mockResolvedValue(null);
    open();
    typeInto('Email', 'Ada@Example.com');
    await click('Send reset link');
    expect(api.forgotPassword).toHaveBeenCalledWith({ email: 'ada@example.com' });
    await waitFor(() => expect(currentLocation()).toBe('/forgot-password?mailSent'));
    expect(screen.getByText(en('auth.mailSent.body', { email: 'ada@example.com' }))).toBeTruthy();
  });

  it("shows the server's message on failure", async () => {
    api.forgotPassword.mockRejectedValue(new ApiError('Too many requests. Please try again in 1 minute.', 429, 'RATE_LIMITED', null, null));
    open();
    typeInto('Email', 'ada@example.com');
    await click('Send reset link');
    expect((await screen.findByRole('alert')).textContent).toBe('Too many requests. Please try again in 1 minute.');
  });

  it('links back to /signin', () => {
    open();
    expect(screen.getByRole('link', { name: 'Back to login' }).getAttribute('href')).toBe('/signin');
  });
});

describe('resetPassword step', () => {
  it('without a token: the email step with the missing-code error', () => {
    open('?resetPassword');
    expect(screen.getByRole('alert').textContent).toBe(en('errors.resetCodeMissing'));
    expect(api.verifyResetToken).not.toHaveBeenCalled();
  });

  it('with an invalid token: back to the email step with the invalid-code error', async () => {
    api.verifyResetToken.mockRejectedValue(new ApiError(en('errors.TOKEN_INVALID'), 400, 'TOKEN_INVALID', null, null));
    open('?resetPassword&token=bad');
    expect(api.verifyResetToken).toHaveBeenCalledWith('bad');
    expect((await screen.findByRole('alert')).textContent).toBe(en('errors.resetCodeInvalid'));
    expect(screen.getByLabelText('Email')).toBeTruthy();
  });

  it.each([
    ['New password', 'short1!', 'validation.passwordLength'],
    ['New password', 'nouppercase1!', 'validation.uppercase'],
    ['New password', 'NOLOWERCASE1!', 'validation.lowercase'],
    ['New password', 'NoNumber!!', 'validation.number'],
    ['New password', 'NoSpecial12', 'validation.special'],
    ['Confirm new password', '', 'validation.required'],
    ['Confirm new password', 'short', 'validation.passwordLength'],
  ])('%s = %j shows %s', async (label, value, key) => {
    api.verifyResetToken.mockResolvedValue(null);
    open('?resetPassword&token=good');
    await screen.findByLabelText(label);
    typeInto(label, value);
    await waitFor(() => expect(fieldError(label)).toBe(en(key)));
  });

  it('needs the confirmation to match, then resets and goes to /signin', async () => {
    api.verifyResetToken.mockResolvedValue(null);
    api.resetPassword.mockResolvedValue(null);
    open('?resetPassword&token=good');
    await screen.findByLabelText('New password');
    typeInto('New password', 'Quiet-Harbor7');
    typeInto('Confirm new password', 'Quiet-Harbor8');
    await click('Save new password');
    expect(fieldError('Confirm new password')).toBe(en('validation.match'));
    expect(api.resetPassword).not.toHaveBeenCalled();
    typeInto('Confirm new password', 'Quiet-Harbor7');
    await click('Save new password');
    expect(api.resetPassword).toHaveBeenCalledWith({ token: 'good', password: 'Quiet-Harbor7' });
    await waitFor(() => expect(currentLocation()).toBe('/signin?ref=password-reset'));
  });
});
