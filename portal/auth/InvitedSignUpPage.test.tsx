// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { errorReply, mockRoutes, okReply, type ApiRoutes } from '../../src/testing/fetchMock';
import { currentLocation, en, fieldError, renderPage, typeInto } from '../../src/testing/renderPage';
import InvitedSignUpPage, { ACCEPTED_REDIRECT_MS } from './InvitedSignUpPage';
import { peekReturnRoute } from '../../src/session';
import SignInPage from './SignInPage';
import { authForms } from './authFormsLoader';

const INVITATION = { email: 'grace@example.com', companyName: 'Analytical Engines', role: 'viewer', existingUser: false };
const L = {
  email: en('invited.email'),
  first: en('auth.form.firstName'),
  last: en('auth.form.lastName'),
  designation: en('invited.designation'),
  password: en('auth.form.password'),
  terms: en('auth.signUp.acceptTerms'),
  privacy: en('auth.signUp.acceptPrivacy'),
};

const open = async (routes: ApiRoutes, entry = '/account/invited?token=tok-1') => {
  const api = mockRoutes(routes);
  renderPage(<InvitedSignUpPage />, entry, '/account/invited');
  // The token check answers, and the form (its own chunk) loads, or the page moves on.
  await waitFor(() => expect(screen.queryByText(en('invited.checking'))).toBeNull());
  return api;
};
const submit = () => act(async () => void fireEvent.click(screen.getByRole('button', { name: en('invited.submit') })));
function fillValid() {
  typeInto(L.first, 'Grace');
  typeInto(L.last, 'Hopper');
  fireEvent.change(screen.getByLabelText(L.designation), { target: { value: 'dev' } });
  typeInto(L.password, 'Quiet-Harbor7');
  fireEvent.click(screen.getByLabelText(L.terms));
  fireEvent.click(screen.getByLabelText(L.privacy));
}

// The forms' checks load in steps after the page (authFormsLoader.ts); in before any test
// types, and before a test's fake timers would hold them up.
beforeAll(() => authForms);

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('the invitation token (SPEC §4 Invited sign-up)', () => {
  it('without a token goes to sign-in with the invalid-invitation message, asking nothing', async () => {
    const api = await open({}, '/account/invited');
    expect(currentLocation()).toBe('/account/signin?error=invalid-invitation');
    expect(api.calls).toHaveLength(0);
  });

  it('a refused token (400) goes to sign-in with the invalid-invitation message', async () => {
    const api = await open({ 'POST /companies/users/check-invited': errorReply(400, 'INVITATION_INVALID', en('errors.invalidInvitation')) });
    expect(api.calls[0]?.body).toEqual({ token: 'tok-1' });
    await waitFor(() => expect(currentLocation()).toBe('/account/signin?error=invalid-invitation'));
  });

  it('sign-in shows that message', () => {
    renderPage(<SignInPage />, '/account/signin?error=invalid-invitation', '/account/signin');
    expect(screen.getByText(en('errors.invalidInvitation'))).toBeTruthy();
  });

  it('sign-in after an accepted invitation has the invited email filled in; anything not an email is left out', () => {
    renderPage(<SignInPage />, '/account/signin?email=grace%40example.com', '/account/signin');
    expect((screen.getByLabelText(en('auth.form.email')) as HTMLInputElement).value).toBe('grace@example.com');
    cleanup();
    renderPage(<SignInPage />, '/account/signin?email=%3Cscript%3E', '/account/signin');
    expect((screen.getByLabelText(en('auth.form.email')) as HTMLInputElement).value).toBe('');
  });

  it('any other failure stays here and says so', async () => {
    await open({ 'POST /companies/users/check-invited': errorReply(429, 'RATE_LIMITED', 'Too many requests. Please try again in 30 seconds.') });
    expect((await screen.findByRole('alert')).textContent).toBe('Too many requests. Please try again in 30 seconds.');
    expect(currentLocation()).toBe('/account/invited?token=tok-1');
  });
});

describe('the form', () => {
  it('names the company and role and shows the invited email read-only', async () => {
    await open({ 'POST /companies/users/check-invited': okReply(INVITATION) });
    expect(screen.getByText(`${en('invited.intro', { company: 'Analytical Engines' })} ${en('invited.role', { role: en('invited.roles.viewer') })}`)).toBeTruthy();
    const email = screen.getByLabelText(L.email) as HTMLInputElement;
    expect(email.value).toBe('grace@example.com');
    expect(email.readOnly).toBe(true);
    expect(screen.queryByText(en('invited.existingUser', { company: 'Analytical Engines' }))).toBeNull();
  });

  it.each([
    [L.first, 'Al', 'validation.invitedNameLength'],
    [L.first, 'x'.repeat(65), 'validation.invitedNameLength'],
    [L.last, 'Li', 'validation.invitedNameLength'],
    [L.last, '<b>Hop</b>', 'validation.noHtml'],
    [L.password, 'QuietHarbor7', 'validation.special'],
  ])('%s = %j shows %s (3 to 64 for invited names)', async (label, value, key) => {
    await open({ 'POST /companies/users/check-invited': okReply(INVITATION) });
    typeInto(label, value);
    await waitFor(() => expect(fieldError(label)).toBe(en(key)));
  });

  it('needs a role and both boxes before it calls the API', async () => {
    const api = await open({ 'POST /companies/users/check-invited': okReply(INVITATION) });
    typeInto(L.first, 'Grace');
    typeInto(L.last, 'Hopper');
    typeInto(L.password, 'Quiet-Harbor7');
    await submit();
    expect(fieldError(L.designation)).toBe(en('validation.required'));
    expect(fieldError(L.terms)).toBe(en('validation.mustBeTrue'));
    expect(fieldError(L.privacy)).toBe(en('validation.mustBeTrue'));
    expect(api.calls).toHaveLength(1);
  });

  it('asks a signed-out owner of an existing account to sign in first, and brings them back here', async () => {
    const api = await open({ 'POST /companies/users/check-invited': okReply({ ...INVITATION, existingUser: true }) });
    expect(screen.getByText(en('invited.existingUser', { company: 'Analytical Engines' }))).toBeTruthy();
    // No form: a password typed here could only be a new one, and the account is not the link's to change.
    expect(screen.queryByLabelText(L.password)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: en('invited.signInToJoin') }));
    await waitFor(() => expect(currentLocation()).toBe('/account/signin?ref=invitation-sign-in&email=grace%40example.com'));
    expect(peekReturnRoute()).toBe('/account/invited?token=tok-1');
    expect(api.callsTo('POST', '/api/v1/companies/users/invited')).toHaveLength(0);
  });
});

describe('accepting', () => {
  it("sends the payload, shows 'Invitation accepted', then goes to sign-in with the invited email filled in", async () => {
    const api = await open({ 'POST /companies/users/check-invited': okReply(INVITATION), 'POST /companies/users/invited': okReply(null, 201) });
    fillValid();
    vi.useFakeTimers();
    await submit();
    expect(api.callsTo('POST', '/api/v1/companies/users/invited')[0]?.body).toEqual({ token: 'tok-1', firstName: 'Grace', lastName: 'Hopper', designation: 'dev', password: 'Quiet-Harbor7' });
    expect(screen.getByText(en('invited.accepted'))).toBeTruthy();
    expect(screen.getByRole('link', { name: en('invited.signIn') }).getAttribute('href')).toBe('/account/signin?email=grace%40example.com');
    expect(currentLocation()).toBe('/account/invited?token=tok-1');
    act(() => vi.advanceTimersByTime(ACCEPTED_REDIRECT_MS));
    expect(currentLocation()).toBe('/account/signin?email=grace%40example.com');
  });

  it("says 'Something went wrong' when the failure has no specific message", async () => {
    await open({ 'POST /companies/users/check-invited': okReply(INVITATION), 'POST /companies/users/invited': { status: 502, body: '' } });
    fillValid();
    await submit();
    expect((await screen.findByRole('alert')).textContent).toBe(en('errors.somethingWentWrong'));
  });

  it('shows a coded refusal as the API words it, and field errors on their fields', async () => {
    await open({
      'POST /companies/users/check-invited': okReply(INVITATION),
      'POST /companies/users/invited': errorReply(400, 'VALIDATION_FAILED', 'Please check fields: lastName.', { lastName: ['Error: Use 3 to 64 characters.'] }),
    });
    fillValid();
    await submit();
    expect((await screen.findByRole('alert')).textContent).toBe('Use 3 to 64 characters.');
    expect(fieldError(L.last)).toBe('Use 3 to 64 characters.');
  });
});
