// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, okReply } from '../testing/fetchMock';
import { en, renderPage } from '../testing/renderPage';
import { WelcomeLayout } from './WelcomeLayout';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const serveContent = () => mockApi((call) => (call.path === '/api/v1/content/prelogin' ? okReply(null) : Promise.reject(new Error(`unexpected ${call.path}`))));

describe('the front door', () => {
  it('leads a visitor to the plans and prices from the top of the page', () => {
    serveContent();
    renderPage(
      <WelcomeLayout pricingLink>
        <h1>Sign in</h1>
      </WelcomeLayout>,
      '/account/signin',
    );
    const link = screen.getByRole('link', { name: 'Plans and pricing' });
    expect(link.getAttribute('href')).toBe('/pricing');
    expect(en('welcome.pricingLink')).toBe('Plans and pricing');
  });

  it('onboarding pages in the same layout (signed in already) carry no such link', () => {
    serveContent();
    renderPage(
      <WelcomeLayout>
        <h1>Create your company</h1>
      </WelcomeLayout>,
      '/account/company',
    );
    expect(screen.queryByRole('link', { name: 'Plans and pricing' })).toBeNull();
  });
});
