// @vitest-environment happy-dom
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockRoutes, okReply } from '../../src/testing/fetchMock';
import { renderPage } from '../../src/testing/renderPage';

// A file of its own: the test loads the page's modules afresh (vi.resetModules), and the other
// tests' lazily loaded form would otherwise come from that second copy, with its own ApiError class.
const INVITATION = { email: 'grace@example.com', companyName: 'Analytical Engines', role: 'viewer', existingUser: false };

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the invitation token (SPEC §4 Invited sign-up)', () => {
  it('checks the token of the address as soon as the page loads, and its first render uses that answer', async () => {
    vi.resetModules();
    window.location.hash = '#/account/invited?token=tok-early';
    const api = mockRoutes({ 'POST /companies/users/check-invited': okReply(INVITATION) });
    const fresh = await import('./InvitedSignUpPage');
    expect(api.calls.map((c) => c.body)).toEqual([{ token: 'tok-early' }]);
    renderPage(<fresh.default />, '/account/invited?token=tok-early', '/account/invited');
    await act(async () => {});
    // The new member's form, from that one answer (the fresh module's strings are not loaded: keys show).
    await waitFor(() => expect(document.querySelector('form')).not.toBeNull());
    expect(screen.getByText('invited.intro invited.role')).toBeTruthy();
    expect(api.calls).toHaveLength(1);
    window.location.hash = '';
  });
});
