// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CurrentUser } from '../../src/domain/auth/schemas';
import { session } from '../../src/session';
import { closeDialog, getDialogs } from '../../src/ui/dialog/dialogStore';
import { DialogHost } from '../../src/ui/dialog/DialogHost';
import { errorReply, okReply } from '../../src/testing/fetchMock';
import { currentLocation, en, fieldError, renderPage, testUser, typeInto } from '../../src/testing/renderPage';
import { signInWithApi } from '../../src/testing/session';
import ProfilePage from './ProfilePage';

const ada: CurrentUser = { ...testUser, designation: 'dev', emailVerified: true, onboarding: null };
const EXPORT = { user: { email: 'ada@example.com' }, companies: [] };
const PASSWORD = en('profile.data.password');

const click = (name: string) => act(async () => void fireEvent.click(screen.getByRole('button', { name })));
const open = () =>
  renderPage(
    <>
      <ProfilePage />
      <DialogHost />
    </>,
    '/profile/data',
    '/profile/*',
  );

let saved: { name: string; blob: Blob }[];
beforeEach(() => {
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
  act(() => {
    for (const d of getDialogs()) closeDialog(d.id, false);
  });
  session.end();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('download my data (SPEC §7 Other)', () => {
  it('GETs the export with the session cookie and saves it as a JSON file named with the date', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 10, 21, 9, 30));
    const api = await signInWithApi(ada, { 'GET /users/u1/export': { status: 200, body: EXPORT } });
    open();
    await click(en('profile.data.export'));
    await screen.findByText(en('profile.data.exported', { file: 'beacon-data-2026-11-21.json' }));
    expect(api.callsTo('GET', '/api/v1/users/u1/export')[0]?.credentials).toBe('include');
    expect(saved[0]?.name).toBe('beacon-data-2026-11-21.json');
    expect(JSON.parse((await saved[0]?.blob.text()) ?? '')).toEqual(EXPORT);
  });

  it('shows the API error of a failed export and saves nothing', async () => {
    await signInWithApi(ada, { 'GET /users/u1/export': errorReply(403, 'FORBIDDEN', en('errors.FORBIDDEN')) });
    open();
    await click(en('profile.data.export'));
    expect((await screen.findByRole('alert')).textContent).toBe(en('errors.FORBIDDEN'));
    expect(saved).toHaveLength(0);
  });

  it('a lost session ends it instead of saving an error page', async () => {
    await signInWithApi(ada, { 'GET /users/u1/export': errorReply(401, 'UNAUTHORIZED', en('errors.UNAUTHORIZED')) });
    open();
    await click(en('profile.data.export'));
    await waitFor(() => expect(session.getSnapshot().user).toBeNull());
    expect(saved).toHaveLength(0);
  });
});

describe('delete my account', () => {
  it('asks for the password, then confirms in a dialog; keeping the account calls nothing', async () => {
    const api = await signInWithApi(ada);
    open();
    await click(en('profile.data.delete'));
    expect(fieldError(PASSWORD)).toBe(en('validation.required'));
    expect(screen.queryByRole('alertdialog')).toBeNull();

    typeInto(PASSWORD, 'Old-Secret1');
    await click(en('profile.data.delete'));
    expect(screen.getByRole('alertdialog', { name: en('profile.data.confirmTitle') })).toBeTruthy();
    await click(en('profile.data.keep'));
    expect(api.calls).toHaveLength(0);
    expect(session.getSnapshot().user).not.toBeNull();
  });

  it('deletes with the password, ends the session and goes to the start page', async () => {
    const api = await signInWithApi(ada, { 'DELETE /auth/me': okReply(null) });
    open();
    typeInto(PASSWORD, 'Old-Secret1');
    await click(en('profile.data.delete'));
    await click(en('profile.data.confirm'));
    await waitFor(() => expect(currentLocation()).toBe('/'));
    expect(api.callsTo('DELETE', '/api/v1/auth/me')[0]?.body).toEqual({ password: 'Old-Secret1' });
    expect(session.getSnapshot()).toMatchObject({ state: 'ANONYMOUS', user: null, ended: 'signOut' });
  });

  it('a wrong password shows on the field and keeps the user signed in', async () => {
    await signInWithApi(ada, {
      'DELETE /auth/me': errorReply(400, 'WRONG_PASSWORD', en('errors.WRONG_PASSWORD'), { password: [en('errors.wrongPassword')] }),
    });
    open();
    typeInto(PASSWORD, 'Not-It1!');
    await click(en('profile.data.delete'));
    await click(en('profile.data.confirm'));
    await waitFor(() => expect(fieldError(PASSWORD)).toBe(en('errors.wrongPassword')));
    expect(currentLocation()).toBe('/profile/data');
    expect(session.getSnapshot().user).not.toBeNull();
  });

  it('a Google account without a password is not asked for one', async () => {
    const api = await signInWithApi({ ...ada, via: 'google', hasPassword: false }, { 'DELETE /auth/me': okReply(null) });
    open();
    expect(screen.queryByLabelText(PASSWORD)).toBeNull();
    await click(en('profile.data.delete'));
    await click(en('profile.data.confirm'));
    await waitFor(() => expect(currentLocation()).toBe('/'));
    expect(api.callsTo('DELETE', '/api/v1/auth/me')[0]?.body).toEqual({});
  });
});
