// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../dataProvider/httpClient';
import { passkeysApi } from '../../dataProvider/passkeys';
import { en, fieldError, renderPage } from '../../src/testing/renderPage';
import { authForms } from './authFormsLoader';
import SignInPage from './SignInPage';
import type * as Webauthn from './webauthn';
import { getPasskey } from './webauthn';

vi.mock('../../dataProvider/auth', () => ({ authApi: { signIn: vi.fn(), requestMagicLink: vi.fn() } }));
vi.mock('../../dataProvider/passkeys', () => ({ passkeysApi: { signInOptions: vi.fn(), signIn: vi.fn() } }));
vi.mock('./webauthn', async (original) => ({ ...(await original<typeof Webauthn>()), autofillSupported: vi.fn(async () => false), getPasskey: vi.fn() }));

beforeAll(() => authForms);
afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

const passkeyButton = () => screen.getByRole('button', { name: en('auth.signIn.passkey') });

/** The email field has the focus when the page opens; the user leaves it for the passkey button. */
async function leaveEmailEmpty() {
  const email = screen.getByLabelText('Email');
  fireEvent.focus(email);
  fireEvent.blur(email);
  // Leaving the field empty marks it (mode onTouched): what a passkey attempt must take back.
  await waitFor(() => expect(fieldError('Email')).toBe(en('validation.required')));
}

describe('a failed passkey sign-in', () => {
  it('refused by the server: the message, and the email field is not marked invalid', async () => {
    vi.mocked(passkeysApi.signInOptions).mockResolvedValue({ challenge: 'c' } as never);
    vi.mocked(getPasskey).mockResolvedValue({ id: 'cred' });
    vi.mocked(passkeysApi.signIn).mockRejectedValue(new ApiError(en('errors.PASSKEY_UNKNOWN'), 401, 'PASSKEY_UNKNOWN', null, null));
    renderPage(<SignInPage />, '/account/signin');
    await leaveEmailEmpty();
    await act(async () => void fireEvent.click(passkeyButton()));
    expect((await screen.findByRole('alert')).textContent).toBe(en('errors.PASSKEY_UNKNOWN'));
    expect(fieldError('Email')).toBeNull();
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).not.toBe('true');
  });

  it('dismissed in the browser: the same, with its own message', async () => {
    vi.mocked(passkeysApi.signInOptions).mockResolvedValue({ challenge: 'c' } as never);
    vi.mocked(getPasskey).mockRejectedValue(Object.assign(new Error('closed'), { name: 'NotAllowedError' }));
    renderPage(<SignInPage />, '/account/signin');
    await leaveEmailEmpty();
    await act(async () => void fireEvent.click(passkeyButton()));
    expect((await screen.findByRole('alert')).textContent).toBe(en('auth.signIn.passkeyDismissed'));
    expect(fieldError('Email')).toBeNull();
    expect(passkeysApi.signIn).not.toHaveBeenCalled();
  });

  it('pressing the passkey button keeps the focus in the email field, so it is not left (and checked) on the way', () => {
    renderPage(<SignInPage />, '/account/signin');
    // fireEvent answers false when the handler prevented the default (moving the focus).
    expect(fireEvent.mouseDown(passkeyButton())).toBe(false);
    expect(fireEvent.mouseDown(screen.getByRole('button', { name: en('auth.signIn.magicLink') }))).toBe(true);
  });
});
