// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CurrentUser } from '../../src/domain/auth/schemas';
import { session } from '../../src/session';
import { errorReply, okReply, type ApiCall } from '../../src/testing/fetchMock';
import { en, fieldError, renderPage, testUser, typeInto } from '../../src/testing/renderPage';
import { signInWithApi } from '../../src/testing/session';
import ProfilePage from './ProfilePage';

const ada: CurrentUser = { ...testUser, designation: 'dev', emailVerified: true, onboarding: null };
const SETUP = { secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', otpauthUri: 'otpauth://totp/Beacon:ada%40example.com?secret=JBSWY3DPEHPK3PXP', qrImage: 'data:image/png;base64,iVBORw0KGgo=' };
const CODES = Array.from({ length: 10 }, (_, i) => `abcd${i}-efgh${i}`);
const WRONG = errorReply(400, 'TWO_FACTOR_CODE_WRONG', en('errors.TWO_FACTOR_CODE_WRONG'), { code: [en('errors.TWO_FACTOR_CODE_WRONG')] });
const CODE = en('profile.twoFactor.code');
// The page's passkey section (PasskeySettings) lists the account's passkeys: none here.
const NO_PASSKEYS = { 'GET /auth/passkeys': okReply([]) };
const DISABLE_CODE = en('profile.twoFactor.disableCode');

const click = (name: string) => act(async () => void fireEvent.click(screen.getByRole('button', { name })));
const open = () => renderPage(<ProfilePage />, '/profile/authentication', '/profile/*');
const status = () => screen.getByText(en('profile.twoFactor.heading')).parentElement?.textContent;

let writeText: ReturnType<typeof vi.fn>;
let saved: { name: string; blob: Blob }[];
beforeEach(() => {
  writeText = vi.fn(() => Promise.resolve());
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  saved = [];
  let lastBlob: Blob | null = null;
  URL.createObjectURL = vi.fn((blob: Blob) => {
    lastBlob = blob;
    return 'blob:file';
  });
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    if (lastBlob) saved.push({ name: this.download, blob: lastBlob });
  });
});
afterEach(() => {
  cleanup();
  session.end();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('turning two-factor sign-in on', () => {
  it('asks for the password again when the server wants a fresh proof, then carries on with the setup', async () => {
    let proved = false;
    const api = await signInWithApi(ada, {
      ...NO_PASSKEYS,
      'GET /auth/me': okReply(ada),
      'POST /auth/2fa/initiate': () => (proved ? okReply(SETUP) : errorReply(403, 'REAUTH_REQUIRED', en('errors.REAUTH_REQUIRED'))),
      'POST /auth/reauthenticate': (call: ApiCall) => {
        if ((call.body as { password: string }).password !== 'Quiet-Harbor7') return errorReply(400, 'WRONG_PASSWORD', en('errors.WRONG_PASSWORD'), { password: [en('errors.wrongPassword')] });
        proved = true;
        return okReply(null);
      },
    });
    open();
    await click(en('profile.twoFactor.start'));
    expect(await screen.findByText(en('profile.confirmIdentity.intro'))).toBeTruthy();
    typeInto(en('profile.confirmIdentity.password'), 'Wrong-one1!');
    await click(en('profile.confirmIdentity.submit'));
    await waitFor(() => expect(fieldError(en('profile.confirmIdentity.password'))).toBe(en('errors.wrongPassword')));
    expect(screen.queryByText(SETUP.secret)).toBeNull();
    typeInto(en('profile.confirmIdentity.password'), 'Quiet-Harbor7');
    await click(en('profile.confirmIdentity.submit'));
    expect(await screen.findByText(SETUP.secret)).toBeTruthy();
    expect(api.callsTo('POST', '/api/v1/auth/2fa/initiate')).toHaveLength(2);
  });

  it('initiates, shows the QR code and copyable key, enables with a code and shows the recovery codes once', async () => {
    let me = ada;
    const api = await signInWithApi(ada, {
      ...NO_PASSKEYS,
      'GET /auth/me': () => okReply(me),
      'POST /auth/2fa/initiate': okReply(SETUP),
      'POST /auth/2fa/enable': (call: ApiCall) => {
        if ((call.body as { code: string }).code !== '123456') return WRONG;
        me = { ...me, mfaEnabled: true };
        return okReply({ recoveryCodes: CODES });
      },
    });
    open();
    expect(status()).toContain(en('profile.twoFactor.off'));
    await click(en('profile.twoFactor.start'));

    expect(screen.getByRole('img', { name: en('profile.twoFactor.qrAlt') }).getAttribute('src')).toBe(SETUP.qrImage);
    expect(screen.getByLabelText(en('profile.twoFactor.secret')).textContent).toBe(SETUP.secret);
    await click(en('profile.twoFactor.copySecret'));
    expect(writeText).toHaveBeenCalledWith(SETUP.secret);
    expect(screen.getByRole('button', { name: en('profile.twoFactor.copied') })).toBeTruthy();

    // Digits only, six of them.
    typeInto(CODE, '12a3');
    expect((screen.getByLabelText(CODE) as HTMLInputElement).value).toBe('123');
    await click(en('profile.twoFactor.enable'));
    expect(fieldError(CODE)).toBe(en('validation.authCode'));

    typeInto(CODE, '654321');
    await click(en('profile.twoFactor.enable'));
    expect((await screen.findByRole('alert')).textContent).toBe(en('errors.TWO_FACTOR_CODE_WRONG'));
    expect(fieldError(CODE)).toBe(en('errors.TWO_FACTOR_CODE_WRONG'));

    typeInto(CODE, '123456');
    await click(en('profile.twoFactor.enable'));
    const list = await screen.findByRole('list', { name: en('profile.twoFactor.recoveryHeading') });
    expect([...list.querySelectorAll('li')].map((li) => li.textContent)).toEqual(CODES);
    expect(screen.getByText(en('profile.twoFactor.recoveryNote'))).toBeTruthy();
    expect(status()).toContain(en('profile.twoFactor.on'));
    // SPEC §4: enabling refreshes the user.
    expect(api.callsTo('GET', '/api/v1/auth/me')).toHaveLength(1);
    expect(session.getSnapshot().user?.mfaEnabled).toBe(true);

    await click(en('profile.twoFactor.copyCodes'));
    expect(writeText).toHaveBeenLastCalledWith(CODES.join('\n'));
    await click(en('profile.twoFactor.downloadCodes'));
    expect(saved[0]?.name).toBe('beacon-recovery-codes.txt');
    const text = await saved[0]?.blob.text();
    for (const code of CODES) expect(text).toContain(code);
    expect(text).toContain('ada@example.com');

    await click(en('profile.twoFactor.done'));
    expect(screen.queryByRole('list', { name: en('profile.twoFactor.recoveryHeading') })).toBeNull();
    expect(screen.getByLabelText(DISABLE_CODE)).toBeTruthy();
    // Opening the page again never shows them.
    cleanup();
    open();
    expect(screen.queryByText(CODES[0] ?? '')).toBeNull();
  });

  it('cancel leaves the setup without turning anything on', async () => {
    const api = await signInWithApi(ada, { ...NO_PASSKEYS, 'POST /auth/2fa/initiate': okReply(SETUP) });
    open();
    await click(en('profile.twoFactor.start'));
    await click(en('profile.twoFactor.cancel'));
    expect(screen.getByRole('button', { name: en('profile.twoFactor.start') })).toBeTruthy();
    expect(api.callsTo('POST', '/api/v1/auth/2fa/enable')).toHaveLength(0);
  });
});

describe('turning two-factor sign-in off', () => {
  it('takes a current code or a recovery code; a wrong one shows the server error', async () => {
    let me: CurrentUser = { ...ada, mfaEnabled: true };
    const api = await signInWithApi(me, {
      ...NO_PASSKEYS,
      'GET /auth/me': () => okReply(me),
      'POST /auth/2fa/disable': (call: ApiCall) => {
        if ((call.body as { code: string }).code !== 'abcde-23456') return WRONG;
        me = { ...me, mfaEnabled: false };
        return okReply(null);
      },
    });
    open();
    expect(status()).toContain(en('profile.twoFactor.on'));
    typeInto(DISABLE_CODE, '12');
    await click(en('profile.twoFactor.disable'));
    expect(fieldError(DISABLE_CODE)).toBe(en('validation.authCode'));

    typeInto(DISABLE_CODE, '000000');
    await click(en('profile.twoFactor.disable'));
    expect((await screen.findByRole('alert')).textContent).toBe(en('errors.TWO_FACTOR_CODE_WRONG'));
    expect(session.getSnapshot().user?.mfaEnabled).toBe(true);

    typeInto(DISABLE_CODE, ' abcde-23456 ');
    await click(en('profile.twoFactor.disable'));
    await waitFor(() => expect(screen.getByText(en('profile.twoFactor.disabled'))).toBeTruthy());
    expect(api.callsTo('POST', '/api/v1/auth/2fa/disable').at(-1)?.body).toEqual({ code: 'abcde-23456' });
    expect(status()).toContain(en('profile.twoFactor.off'));
    expect(screen.getByRole('button', { name: en('profile.twoFactor.start') })).toBeTruthy();
  });
});
