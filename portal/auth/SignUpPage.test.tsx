// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { authApi } from '../../dataProvider/auth';
import { ApiError } from '../../dataProvider/httpClient';
import { currentLocation, en, fieldError, renderPage, typeInto } from '../../src/testing/renderPage';
import SignUpPage from './SignUpPage';
import { authForms } from './authFormsLoader';

vi.mock('../../dataProvider/auth', () => ({ authApi: { signUp: vi.fn() } }));
const signUp = vi.mocked(authApi.signUp);

const L = { first: 'First name', last: 'Last name', email: 'Email', password: 'Password', terms: 'I accept the terms of service', privacy: 'I accept the privacy policy' };
const submit = () => act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Create account' })));

function fillValid() {
  typeInto(L.first, 'Ada');
  typeInto(L.last, 'Lovelace');
  typeInto(L.email, 'Ada@Example.com');
  typeInto(L.password, 'Quiet-Harbor7');
  fireEvent.click(screen.getByLabelText(L.terms));
  fireEvent.click(screen.getByLabelText(L.privacy));
}

beforeEach(() => renderPage(<SignUpPage />, '/account/create'));
// The forms' checks load in steps after the page (authFormsLoader.ts); in before any test
// types, and before a test's fake timers would hold them up.
beforeAll(() => authForms);

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

describe('sign-up rules (SPEC §5)', () => {
  const cases: [string, string, string][] = [
    [L.first, '', 'validation.required'],
    [L.first, 'A', 'validation.nameLength'],
    [L.first, 'x'.repeat(65), 'validation.nameLength'],
    [L.first, '<b>Ada</b>', 'validation.noHtml'],
    [L.last, '', 'validation.required'],
    [L.last, 'L', 'validation.nameLength'],
    [L.last, 'y'.repeat(65), 'validation.nameLength'],
    [L.last, '<i>x</i>', 'validation.noHtml'],
    [L.email, '', 'validation.required'],
    [L.email, 'not-an-email', 'validation.email'],
    [L.email, `${'a'.repeat(310)}@example.com`, 'validation.emailMax'],
    [L.email, '<b>a@b.co</b>', 'validation.noHtml'],
    [L.password, '', 'validation.required'],
    [L.password, 'Ab1!x', 'validation.passwordLength'],
    [L.password, `Ab1!${'x'.repeat(125)}`, 'validation.passwordLength'],
    [L.password, 'quiet-harbor7', 'validation.uppercase'],
    [L.password, 'QUIET-HARBOR7', 'validation.lowercase'],
    [L.password, 'Quiet-Harbor', 'validation.number'],
    [L.password, 'QuietHarbor7', 'validation.special'],
    [L.password, 'Quiet<b>Harbor7!', 'validation.noHtml'],
    [L.password, 'Password1!', 'validation.commonPassword'],
  ];
  it.each(cases)('%s = %j shows %s', async (label, value, key) => {
    typeInto(label, value);
    await waitFor(() => expect(fieldError(label)).toBe(en(key)));
    // The warning icon is there for sighted users; its tooltip names the same rule.
    expect(screen.getAllByTestId('field-error-icon').length).toBeGreaterThan(0);
  });

  it('needs both agreement boxes ticked', async () => {
    fillValid();
    fireEvent.click(screen.getByLabelText(L.terms));
    fireEvent.click(screen.getByLabelText(L.privacy));
    await submit();
    expect(fieldError(L.terms)).toBe(en('validation.mustBeTrue'));
    expect(fieldError(L.privacy)).toBe(en('validation.mustBeTrue'));
    fireEvent.click(screen.getByLabelText(L.terms));
    await submit();
    expect(fieldError(L.terms)).toBeNull();
    expect(fieldError(L.privacy)).toBe(en('validation.mustBeTrue'));
    expect(signUp).not.toHaveBeenCalled();
  });
});

describe('password rules panel', () => {
  it('lists the failed rules while the field is focused and invalid', async () => {
    const input = screen.getByLabelText(L.password);
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: 'abc' } });
    // The rules check loads with the page (it runs the shared zod schema), so the panel may follow a moment later.
    const panel = await screen.findByRole('generic', { name: en('auth.form.passwordRules') });
    expect(panel.style.height || getComputedStyle(panel).height).toBe('264px');
    for (const key of ['validation.passwordLength', 'validation.uppercase', 'validation.number', 'validation.special']) {
      expect(panel.textContent).toContain(en(key));
    }
    expect(panel.textContent).not.toContain(en('validation.lowercase'));
    expect(input.getAttribute('aria-describedby')).toContain(panel.id);
    fireEvent.change(input, { target: { value: 'Quiet-Harbor7' } });
    expect(screen.queryByLabelText(en('auth.form.passwordRules'))).toBeNull();
    fireEvent.change(input, { target: { value: 'abc' } });
    fireEvent.blur(input);
    expect(screen.queryByLabelText(en('auth.form.passwordRules'))).toBeNull();
  });
});

describe('submitting', () => {
  it('sends the payload and asks to open the mailed link, staying signed out', async () => {
    signUp.mockResolvedValue({ email: 'ada@example.com' });
    fillValid();
    await submit();
    expect(signUp).toHaveBeenCalledWith({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', password: 'Quiet-Harbor7' });
    expect(await screen.findByText(en('auth.signUp.checkMail', { email: 'ada@example.com' }))).toBeTruthy();
    expect(currentLocation()).toBe('/account/create');
  });

  it('accepts a passphrase of plain words from 16 characters on', async () => {
    signUp.mockResolvedValue({ email: 'ada@example.com' });
    fillValid();
    typeInto(L.password, 'quiet harbor at dawn');
    await submit();
    await waitFor(() => expect(signUp).toHaveBeenCalledWith(expect.objectContaining({ password: 'quiet harbor at dawn' })));
  });

  it("shows field errors from the server without the 'Error:' prefix, and on the fields", async () => {
    signUp.mockRejectedValue(new ApiError('Error: Use 2 to 64 characters.', 400, 'VALIDATION_FAILED', { firstName: ['Error: Use 2 to 64 characters'] }, null));
    fillValid();
    await submit();
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Use 2 to 64 characters\.$/);
    expect(fieldError(L.first)).toBe('Use 2 to 64 characters');
  });

  it("says 'Something went wrong' without a specific message", async () => {
    signUp.mockRejectedValue(new TypeError('Failed to fetch'));
    fillValid();
    await submit();
    expect((await screen.findByRole('alert')).textContent).toContain(en('errors.somethingWentWrong'));
  });

  it('links to sign-in', () => {
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/account/signin');
  });

  it('links the terms of service and the privacy policy from their boxes, opening in a new tab', () => {
    const terms = screen.getByRole('link', { name: en('auth.signUp.termsLink') });
    const privacy = screen.getByRole('link', { name: en('auth.signUp.privacyLink') });
    expect([terms.getAttribute('href'), terms.getAttribute('target')]).toEqual(['/legal/terms', '_blank']);
    expect([privacy.getAttribute('href'), privacy.getAttribute('target')]).toEqual(['/legal/privacy', '_blank']);
    // The boxes keep their whole sentence as their name.
    expect((screen.getByLabelText(L.terms) as HTMLInputElement).type).toBe('checkbox');
    expect((screen.getByLabelText(L.privacy) as HTMLInputElement).checked).toBe(false);
  });
});
