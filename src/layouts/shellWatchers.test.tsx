// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { I18nextProvider } from 'react-i18next';
import { TIMINGS } from '../domain/constants';
import { session } from '../session';
import { mockRoutes, okReply } from '../testing/fetchMock';
import { en, testUser } from '../testing/renderPage';
import '../appI18n';
import { i18n } from '../i18n';
import { CheckInWarning } from './CheckInWarning';
import { bootSupportChat, chatScriptUrl } from './supportChat';
import { SupportChat } from './SupportChat';

const user = { ...testUser, emailVerified: true, onboarding: null, companies: [] };

beforeEach(async () => {
  mockRoutes({ 'GET /auth/me': okReply(user), 'GET /auth/intercom-hash': okReply({ hash: 'h-123' }) });
  await session.refresh();
});
afterEach(() => {
  cleanup();
  session.end();
  vi.unstubAllGlobals();
  document.head.querySelectorAll('script').forEach((s) => s.remove());
  delete (window as { Intercom?: unknown }).Intercom;
});

const wrap = (node: React.ReactNode) =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <I18nextProvider i18n={i18n}>{node}</I18nextProvider>
    </QueryClientProvider>,
  );

describe('the check-in warning (SPEC §4 Misc, §9)', () => {
  it('stays away while the last check-in is recent, and warns once it is 30 minutes old', () => {
    const fetchedAt = session.getSnapshot().fetchedAt;
    const { unmount } = wrap(<CheckInWarning now={() => fetchedAt + TIMINGS.checkInWarningMs - 1000} />);
    expect(screen.queryByTestId('check-in-warning')).toBeNull();
    unmount();
    wrap(<CheckInWarning now={() => fetchedAt + TIMINGS.checkInWarningMs} />);
    expect(screen.getByTestId('check-in-warning').textContent).toContain(en('nav.checkInWarning', { minutes: 30 }));
  });

  it('checks in again on request; a fresh check-in takes the warning away', async () => {
    let clock = session.getSnapshot().fetchedAt + TIMINGS.checkInWarningMs;
    wrap(<CheckInWarning now={() => clock} />);
    clock = Date.now() + 1000;
    fireEvent.click(screen.getByRole('button', { name: en('nav.checkInNow') }));
    await waitFor(() => expect(screen.queryByTestId('check-in-warning')).toBeNull());
  });
});

describe('the support chat', () => {
  it('loads nothing when no app id is configured', async () => {
    wrap(<SupportChat config={null} />);
    await act(() => Promise.resolve());
    expect(document.querySelector('script')).toBeNull();
    expect((window as { Intercom?: unknown }).Intercom).toBeUndefined();
  });

  it('boots with app id, api base, email, createdAt, name and the signed user hash', async () => {
    const config = { appId: 'abc123', apiBase: 'https://api-iam.intercom.io' };
    wrap(<SupportChat config={config} />);
    await waitFor(() => expect(document.querySelector(`script[src="${chatScriptUrl('abc123')}"]`)).not.toBeNull());
    const queue = (window as unknown as { Intercom: { q: unknown[][] } }).Intercom.q;
    expect(queue[0]).toEqual([
      'boot',
      { app_id: 'abc123', api_base: 'https://api-iam.intercom.io', email: user.email, name: `${user.firstName} ${user.lastName}`, created_at: Math.floor(new Date(user.createdAt).getTime() / 1000), user_hash: 'h-123', user_id: user._id },
    ]);
  });

  it('adds the widget script once however often it boots', () => {
    const config = { appId: 'abc123', apiBase: 'https://api-iam.intercom.io' };
    const who = { email: 'a@example.com', name: 'A', createdAt: 1, userHash: 'h', userId: 'u' };
    bootSupportChat(config, who);
    bootSupportChat(config, who);
    expect(document.querySelectorAll('script')).toHaveLength(1);
  });
});
