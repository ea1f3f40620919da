// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { authApi } from '../../dataProvider/auth';
import { ApiError } from '../../dataProvider/httpClient';
import { currentLocation, en, fieldError, renderPage, typeInto } from '../../src/testing/renderPage';
import RequestUnlockPage from './RequestUnlockPage';
import { authForms } from './authFormsLoader';

vi.mock('../../dataProvider/auth', () => ({ authApi: { requestUnlock: vi.fn() } }));
const requestUnlock = vi.mocked(authApi.requestUnlock);

const open = (query = '') => renderPage(<RequestUnlockPage />, `/request-unlock${query}`, '/request-unlock');
const send = () => act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Send unlock link' })));

// The forms' checks load in steps after the page (authFormsLoader.ts); in before any test
// types, and before a test's fake timers would hold them up.
beforeAll(() => authForms);

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

describe('unlock request', () => {
  it.each([
    ['', 'validation.required'],
    ['nope', 'validation.email'],
    [`${'a'.repeat(320)}@x.io`, 'validation.emailMax'],
  ])('email %j shows %s', async (value, key) => {
    open();
    typeInto('Email', value);
    await waitFor(() => expect(fieldError('Email')).toBe(en(key)));
  });

  it('goes from the email step to the mail-sent step', async () => {
    requestUnlock.mockResolvedValue(null);
    open();
    typeInto('Email', 'ada@example.com');
    await send();
    expect(requestUnlock).toHaveBeenCalledWith({ email: 'ada@example.com' });
    await waitFor(() => expect(currentLocation()).toBe('/request-unlock?mailSent'));
    expect(screen.getByText(en('auth.mailSent.heading'))).toBeTruthy();
  });

  it('shows step two straight from the query', () => {
    open('?mailSent');
    expect(screen.getByText(en('auth.mailSent.bodyNoEmail'))).toBeTruthy();
    expect(screen.queryByLabelText('Email')).toBeNull();
  });

  it('shows the translated error', async () => {
    requestUnlock.mockRejectedValue(new ApiError(en('errors.SERVICE_UNAVAILABLE'), 503, 'SERVICE_UNAVAILABLE', null, null));
    open();
    typeInto('Email', 'ada@example.com');
    await send();
    expect((await screen.findByRole('alert')).textContent).toBe(en('errors.SERVICE_UNAVAILABLE'));
  });

  it('links back to login', () => {
    open();
    expect(screen.getByRole('link', { name: 'Back to login' }).getAttribute('href')).toBe('/account/signin');
  });
});
