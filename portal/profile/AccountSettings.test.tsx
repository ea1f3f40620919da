// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LIMITS } from '../../src/domain/constants';
import type { CurrentUser } from '../../src/domain/auth/schemas';
import { session } from '../../src/session';
import { errorReply, okReply, type ApiCall } from '../../src/testing/fetchMock';
import { currentLocation, en, fieldError, renderPage, testUser, typeInto } from '../../src/testing/renderPage';
import { signInWithApi } from '../../src/testing/session';
import ProfilePage from './ProfilePage';

const ada: CurrentUser = { ...testUser, designation: 'dev', emailVerified: true, onboarding: null, picture: '/api/v1/users/u1/picture?v=1' };

const L = {
  firstName: en('profile.account.firstName'),
  designation: en('profile.account.designation'),
  email: en('profile.account.email'),
  upload: en('profile.account.changePicture'),
  old: en('profile.password.oldPassword'),
  next: en('profile.password.newPassword'),
  confirm: en('profile.password.confirmPassword'),
};
const click = (name: string) => act(async () => void fireEvent.click(screen.getByRole('button', { name })));
const open = () => renderPage(<ProfilePage />, '/profile/account', '/profile/*');
const png = (bytes: number, name = 'me.png', type = 'image/png') => new File([new Uint8Array(bytes)], name, { type });
/** The picture the avatar shows, or null when it shows initials. */
const avatarSrc = () => screen.getAllByRole('img', { name: 'Ada Lovelace' }).find((e) => e.tagName === 'IMG')?.getAttribute('src') ?? null;
const choosePicture = (file: File) => act(async () => void fireEvent.change(screen.getByLabelText(L.upload), { target: { files: [file] } }));

afterEach(() => {
  cleanup();
  session.end();
  vi.unstubAllGlobals();
});

describe('profile form', () => {
  it('shows the saved name, role and read-only email, and the picture', async () => {
    await signInWithApi(ada);
    open();
    expect((screen.getByLabelText(L.firstName) as HTMLInputElement).value).toBe('Ada');
    expect((screen.getByLabelText(L.designation) as HTMLSelectElement).value).toBe('dev');
    const email = screen.getByLabelText(L.email) as HTMLInputElement;
    expect(email.value).toBe('ada@example.com');
    expect(email.readOnly).toBe(true);
    expect(avatarSrc()).toBe(ada.picture);
  });

  it('checks the name and role with the shared rules before calling the API', async () => {
    const api = await signInWithApi({ ...ada, designation: null });
    open();
    typeInto(L.firstName, 'A');
    await click(en('profile.account.save'));
    expect(fieldError(L.firstName)).toBe(en('validation.nameLength'));
    expect(fieldError(L.designation)).toBe(en('validation.required'));
    typeInto(L.firstName, '<b>Ada</b>');
    await waitFor(() => expect(fieldError(L.firstName)).toBe(en('validation.noHtml')));
    expect(api.calls).toHaveLength(0);
  });

  it('saves name and role as JSON, keeps the picture, and refreshes the user', async () => {
    let me = ada;
    const api = await signInWithApi(ada, {
      'GET /auth/me': () => okReply(me),
      'PUT /users/u1': (call: ApiCall) => {
        const body = call.body as { firstName: string; designation: string };
        me = { ...me, firstName: body.firstName, designation: body.designation };
        return okReply(me);
      },
    });
    open();
    typeInto(L.firstName, 'Augusta');
    fireEvent.change(screen.getByLabelText(L.designation), { target: { value: 'founder' } });
    await click(en('profile.account.save'));
    expect(await screen.findByText(en('profile.account.saved'))).toBeTruthy();
    expect(api.callsTo('PUT', '/api/v1/users/u1')[0]?.body).toEqual({ firstName: 'Augusta', designation: 'founder', removePicture: false });
    expect(api.callsTo('GET', '/api/v1/auth/me')).toHaveLength(1);
    expect(session.getSnapshot().user?.firstName).toBe('Augusta');
  });

  it('uploads a chosen picture as multipart, with a preview until saved', async () => {
    const api = await signInWithApi(ada, { 'PUT /users/u1': okReply(ada) });
    open();
    await choosePicture(png(2048));
    await waitFor(() => expect(avatarSrc()).toMatch(/^data:image\/png;base64,/));
    expect(screen.getByText(en('profile.account.picturePending'))).toBeTruthy();
    await click(en('profile.account.save'));
    await screen.findByText(en('profile.account.saved'));
    const body = api.callsTo('PUT', '/api/v1/users/u1')[0]?.body;
    expect(body).toBeInstanceOf(FormData);
    const form = body as FormData;
    expect(form.get('firstName')).toBe('Ada');
    expect(form.get('designation')).toBe('dev');
    expect((form.get('uploadPicture') as File).name).toBe('me.png');
  });

  it('refuses a file over the size limit or of another type without uploading it', async () => {
    const api = await signInWithApi(ada);
    open();
    await choosePicture(png(LIMITS.uploadMaxBytes + 1));
    expect(screen.getByRole('alert').textContent).toBe(en('errors.fileTooBig'));
    await choosePicture(png(100, 'logo.svg', 'image/svg+xml'));
    expect(screen.getByRole('alert').textContent).toBe(en('errors.FILE_TYPE'));
    expect(avatarSrc()).toBe(ada.picture);
    expect(api.calls).toHaveLength(0);
  });

  it('removes the picture: initials show, and the save asks the API to drop it', async () => {
    const api = await signInWithApi(ada, { 'PUT /users/u1': okReply({ ...ada, picture: null }) });
    open();
    await click(en('profile.account.removePicture'));
    expect(avatarSrc()).toBeNull();
    expect(screen.getByRole('img', { name: 'Ada Lovelace' }).textContent).toBe('AL');
    expect(screen.getByText(en('profile.account.pictureRemovalPending'))).toBeTruthy();
    await click(en('profile.account.save'));
    await screen.findByText(en('profile.account.saved'));
    expect(api.callsTo('PUT', '/api/v1/users/u1')[0]?.body).toEqual({ firstName: 'Ada', designation: 'dev', removePicture: true });
  });

  it('puts server field errors on their fields and shows a server refusal of the picture', async () => {
    await signInWithApi(ada, {
      'PUT /users/u1': errorReply(400, 'VALIDATION_FAILED', 'Please check fields: firstName.', { firstName: ['Use 2 to 64 characters.'] }),
    });
    open();
    await click(en('profile.account.save'));
    await waitFor(() => expect(fieldError(L.firstName)).toBe('Use 2 to 64 characters.'));

    cleanup();
    await signInWithApi(ada, { 'PUT /users/u1': errorReply(413, 'FILE_TOO_BIG', en('errors.FILE_TOO_BIG')) });
    open();
    await choosePicture(png(10));
    await screen.findByText(en('profile.account.picturePending'));
    await click(en('profile.account.save'));
    expect((await screen.findByRole('alert')).textContent).toBe(en('errors.FILE_TOO_BIG'));
  });

  it("says 'Session timed out.' when there is no signed-in user", async () => {
    await signInWithApi(ada);
    open();
    act(() => session.end());
    expect(screen.getByRole('alert').textContent).toBe(en('errors.sessionTimedOut'));
  });
});

describe('set password', () => {
  const fillPasswords = (old = 'Old-Secret1', next = 'New-Secret2', confirm = next) => {
    typeInto(L.old, old);
    typeInto(L.next, next);
    typeInto(L.confirm, confirm);
  };

  it('says why when a generated password must be changed, and says nothing otherwise', async () => {
    await signInWithApi({ ...ada, mustChangePassword: true });
    open();
    expect(await screen.findByText(en('profile.password.mustChange'))).toBeTruthy();
    cleanup();
    await signInWithApi(ada);
    open();
    await screen.findByLabelText(L.old);
    expect(screen.queryByText(en('profile.password.mustChange'))).toBeNull();
  });

  it('sends old and new password, then signs out and goes to sign-in (SPEC §4)', async () => {
    const api = await signInWithApi(ada, { 'POST /auth/set-password': okReply(null) });
    open();
    fillPasswords();
    await click(en('profile.password.submit'));
    await waitFor(() => expect(currentLocation()).toBe('/account/signin?ref=password-reset'));
    expect(api.callsTo('POST', '/api/v1/auth/set-password')[0]?.body).toEqual({ oldPassword: 'Old-Secret1', password: 'New-Secret2' });
    expect(session.getSnapshot()).toMatchObject({ state: 'ANONYMOUS', user: null, ended: 'signOut' });
  });

  it('applies the new-password rules and the confirmation before calling the API', async () => {
    const api = await signInWithApi(ada);
    open();
    fillPasswords('Old-Secret1', 'weak', 'weak');
    await click(en('profile.password.submit'));
    expect(fieldError(L.next)).toBe(en('validation.passwordLength'));
    fillPasswords('Old-Secret1', 'New-Secret2', 'New-Secret3');
    await click(en('profile.password.submit'));
    expect(fieldError(L.confirm)).toBe(en('validation.match'));
    expect(api.calls).toHaveLength(0);
  });

  it('shows the rules panel of the sign-up page on the new password', async () => {
    await signInWithApi(ada);
    open();
    const input = screen.getByLabelText(L.next);
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: 'abc' } });
    expect((await screen.findByLabelText(en('auth.form.passwordRules'))).textContent).toContain(en('validation.uppercase'));
  });

  it("shows 'wrong password' and 'same password' from the server on their fields, and stays signed in", async () => {
    await signInWithApi(ada, {
      'POST /auth/set-password': errorReply(400, 'WRONG_PASSWORD', en('errors.WRONG_PASSWORD'), { oldPassword: [en('errors.wrongPassword')] }),
    });
    open();
    fillPasswords();
    await click(en('profile.password.submit'));
    await waitFor(() => expect(fieldError(L.old)).toBe(en('errors.wrongPassword')));
    expect(session.getSnapshot().user).not.toBeNull();

    cleanup();
    await signInWithApi(ada, {
      'POST /auth/set-password': errorReply(400, 'SAME_PASSWORD', en('errors.SAME_PASSWORD'), { password: [en('errors.samePassword')] }),
    });
    open();
    fillPasswords('Same-Secret1', 'Same-Secret1');
    await click(en('profile.password.submit'));
    await waitFor(() => expect(fieldError(L.next)).toBe(en('errors.samePassword')));
    expect(currentLocation()).toBe('/profile/account');
  });

  it('asks for the old password when it is left empty', async () => {
    const api = await signInWithApi(ada);
    open();
    fillPasswords('', 'New-Secret2', 'New-Secret2');
    await click(en('profile.password.submit'));
    expect(fieldError(L.old)).toBe(en('validation.required'));
    expect(api.calls).toHaveLength(0);
  });

  it('lets a Google account without a password set its first one, without an old password', async () => {
    const api = await signInWithApi({ ...ada, via: 'google', hasPassword: false }, { 'POST /auth/set-password': okReply(null) });
    open();
    expect(screen.queryByLabelText(L.old)).toBeNull();
    expect(screen.getByText(en('profile.password.firstIntro'))).toBeTruthy();
    typeInto(L.next, 'New-Secret2');
    typeInto(L.confirm, 'New-Secret2');
    await click(en('profile.password.submit'));
    await waitFor(() => expect(currentLocation()).toBe('/account/signin?ref=password-reset'));
    expect(api.callsTo('POST', '/api/v1/auth/set-password')[0]?.body).toEqual({ password: 'New-Secret2' });
  });
});
