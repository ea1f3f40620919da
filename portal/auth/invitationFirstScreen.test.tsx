// @vitest-environment happy-dom
import { act, cleanup, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pickerSource } from '../../scripts/firstScreenScript';
import { errorReply, mockRoutes, okReply, type MockReply } from '../../src/testing/fetchMock';
import { renderPage } from '../../src/testing/renderPage';
import { authForms } from './authFormsLoader';
import InvitedSignUpPage from './InvitedSignUpPage';
import { INTRO_ATTRIBUTE } from './invitationFirstScreen';

/**
 * The first-screen script's invitation check, run from the source the build writes:
 * it fills the prerendered intro with the same words the page renders, and the page takes its
 * answer over instead of asking again.
 */
const INVITED = '/account/invited';
const CHECK = 'POST /companies/users/check-invited';
const PRODUCT = 'Beacon';
// The invited page's first screen as the build renders it (scripts/prerender.ts), cut down to the intro.
const MARKUP = `<div><h1>Join your team</h1><p><span ${INTRO_ATTRIBUTE}=""></span></p><p>Checking your invitation…</p></div>`;
const INVITATION = { email: 'grace@example.com', companyName: 'Analytical Engines', role: 'viewer', existingUser: false };

const intro = () => document.querySelector(`#root [${INTRO_ATTRIBUTE}]`)?.textContent;

/** Opens `address` as a new load: the server's index.html, then the first-screen script. */
function loadFirstScreen(address: string, source = pickerSource({ [INVITED]: MARKUP }, { aliases: {}, queries: { [INVITED]: ['token'] } }, PRODUCT)) {
  // Only these two: the head holds the style tags of pages rendered before (emotion's, in order).
  document.querySelector('meta[name="client-config"]')?.remove();
  document.getElementById('root')?.remove();
  const config = Object.assign(document.createElement('meta'), { name: 'client-config', content: JSON.stringify({ productName: PRODUCT }) });
  document.head.append(config);
  document.body.append(Object.assign(document.createElement('div'), { id: 'root' }));
  window.location.hash = address;
  new Function(source)();
}

/** What the app's page writes as the intro for `invitation` (its own check answering). */
async function pageIntro(invitation: typeof INVITATION) {
  mockRoutes({ [CHECK]: okReply(invitation) });
  const { container } = renderPage(<InvitedSignUpPage />, `${INVITED}?token=tok-page`, INVITED);
  await act(async () => {});
  const text = container.querySelector(`[${INTRO_ATTRIBUTE}]`)?.textContent;
  cleanup();
  vi.unstubAllGlobals();
  return text;
}

beforeEach(() => {
  window.location.hash = '';
  delete window.beaconInvitationCheck;
});
// The form checks load in steps after the page; let them finish before the environment goes.
afterAll(async () => {
  await authForms;
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.location.hash = '';
  delete window.beaconInvitationCheck;
});

describe('the first-screen script', () => {
  it('holds markup that would end an inline script (React writes <!-- --> between texts) without ending it', () => {
    const markup = '<div><p>You are invited to <!-- -->Ada</p><p>&lt;/script&gt;</p></div>';
    const source = pickerSource({ [INVITED]: markup }, { aliases: {}, queries: {} }, PRODUCT);
    expect(source).not.toMatch(/<\/script|<!--/i);
    loadFirstScreen('#/account/invited', source);
    const root = document.getElementById('root');
    expect(root?.innerHTML).toBe(markup);
    // Inert until the app has taken it over, and naming the address it shows.
    expect(root?.hasAttribute('inert')).toBe(true);
    expect(root?.getAttribute('data-first-screen')).toBe('#/account/invited');
  });
});

describe('the first screen of an invitation link', () => {
  it.each([
    ['a viewer', INVITATION],
    ['an admin', { ...INVITATION, role: 'admin' }],
    ['a role this product does not know', { ...INVITATION, role: 'owner' }],
    ['a company name with markup and template marks', { ...INVITATION, companyName: '<b>Ada</b> & {{company}} $& Sons' }],
  ])('shows the same intro as the page for %s, as text', async (_label, invitation) => {
    const expected = await pageIntro(invitation);
    expect(expected).toContain(invitation.companyName);

    const api = mockRoutes({ [CHECK]: okReply(invitation) });
    loadFirstScreen('#/account/invited?token=tok-1');
    expect(intro()).toBe('');
    await act(async () => {});
    expect(api.calls).toEqual([expect.objectContaining({ path: '/api/v1/companies/users/check-invited', body: { token: 'tok-1' }, credentials: 'include' })]);
    expect(intro()).toBe(expected);
    expect(document.querySelector('#root b')).toBeNull();
  });

  it('sends nothing without a token, or for another page', async () => {
    const api = mockRoutes({ [CHECK]: okReply(INVITATION) });
    loadFirstScreen('#/account/invited');
    loadFirstScreen('#/account/invited?token=%20');
    await act(async () => {});
    expect(api.calls).toHaveLength(0);
    expect(window.beaconInvitationCheck).toBeUndefined();
  });

  it('leaves a refused token to the page, which goes to sign-in without asking again', async () => {
    const api = mockRoutes({ [CHECK]: errorReply(400, 'INVITATION_INVALID', 'This invitation link is invalid or has expired.') });
    loadFirstScreen('#/account/invited?token=tok-refused');
    await act(async () => {});
    expect(intro()).toBe('');
    vi.resetModules();
    const fresh = await import('./InvitedSignUpPage');
    const testing = await import('../../src/testing/renderPage');
    const view = testing.renderPage(<fresh.default />, `${INVITED}?token=tok-refused`, INVITED);
    await act(async () => {});
    expect(testing.currentLocation()).toBe('/account/signin?error=invalid-invitation');
    expect(api.calls).toHaveLength(1);
    view.unmount();
    // The page's module loads the new member's form at once; let it finish before the test ends.
    await import('./InvitedForm');
  });

  it('writes nothing into the page once the app has replaced the first screen', async () => {
    let answer: (reply: MockReply) => void = () => undefined;
    mockRoutes({ [CHECK]: () => new Promise<MockReply>((resolve) => (answer = resolve)) });
    loadFirstScreen('#/account/invited?token=tok-late');
    const root = document.getElementById('root');
    if (!root) throw new Error('no #root');
    root.innerHTML = `<p><span ${INTRO_ATTRIBUTE}="">the app's own</span></p>`;
    await act(async () => answer(okReply(INVITATION)));
    expect(intro()).toBe("the app's own");
    expect(window.beaconInvitationCheck?.invitation).toEqual(INVITATION);
  });

  it('writes nothing into the first screen once the page has taken it over; the page writes the intro', async () => {
    let answer: (reply: MockReply) => void = () => undefined;
    const api = mockRoutes({ [CHECK]: () => new Promise<MockReply>((resolve) => (answer = resolve)) });
    loadFirstScreen('#/account/invited?token=tok-taken');
    vi.resetModules();
    const fresh = await import('./InvitedSignUpPage');
    const testing = await import('../../src/testing/renderPage');
    const view = testing.renderPage(<fresh.default />, `${INVITED}?token=tok-taken`, INVITED);
    expect(window.beaconInvitationCheck?.taken).toBe(true);
    await act(async () => answer(okReply(INVITATION)));
    // The first screen's element is the page's once hydrated: one writer, React.
    expect(intro()).toBe('');
    await waitFor(() => expect(view.container.querySelector(`[${INTRO_ATTRIBUTE}]`)?.textContent).toContain('Analytical Engines'));
    expect(api.calls).toHaveLength(1);
    view.unmount();
  });

  it('the page takes the answer over: its first render shows the intro, and the token is checked once', async () => {
    const api = mockRoutes({ [CHECK]: okReply(INVITATION) });
    loadFirstScreen('#/account/invited?token=tok-shown');
    await act(async () => {});
    const shown = intro();
    expect(shown).toContain('Analytical Engines');
    document.getElementById('root')?.remove();

    vi.resetModules();
    const fresh = await import('./InvitedSignUpPage');
    const testing = await import('../../src/testing/renderPage');
    const view = testing.renderPage(<fresh.default />, `${INVITED}?token=tok-shown`, INVITED);
    const { container } = view;
    // Before the page's own effect has had an answer: the first render already names the company.
    expect(container.querySelector(`[${INTRO_ATTRIBUTE}]`)?.textContent).toBe(shown);
    await waitFor(() => expect(container.querySelector('form input[type="email"]')).not.toBeNull());
    expect(api.calls).toHaveLength(1);
    view.unmount();
  });
});
