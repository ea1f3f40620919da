/** Test helpers for page tests (jsdom): never imported by the app. */
import { fireEvent, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { createI18n } from '../../i18n';
import '../appI18n';
import { clientConfig } from '../clientConfig';
import { i18n } from '../i18n';

/** Shows where the page navigated to, for assertions. */
function LocationProbe() {
  const { pathname, search } = useLocation();
  return <output data-testid="location">{pathname + search}</output>;
}

/**
 * Renders a page at `entry` (matched by `path`), with i18n, a memory router and, as react-admin's
 * `<Admin>` gives the app, a query cache: a fresh one, so no test sees another's answers.
 */
export function renderPage(element: ReactElement, entry: string, path = entry.split('?')[0] ?? '/') {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={[entry]}>
          <Routes>
            <Route path={path} element={element} />
            <Route path="*" element={null} />
          </Routes>
          <LocationProbe />
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

// The server's strings (API error messages among them), for the answers tests make up.
const server = createI18n(clientConfig.productName);

export const currentLocation = () => screen.getByTestId('location').textContent;

/** Types into a field and leaves it, as a user would (forms validate on touch). */
export function typeInto(label: string, value: string) {
  const input = screen.getByLabelText(label);
  fireEvent.focus(input);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
  return input;
}

/** The error text a field points at with aria-describedby, or null when it is valid. */
export function fieldError(label: string): string | null {
  const input = screen.getByLabelText(label);
  if (input.getAttribute('aria-invalid') !== 'true') return null;
  const id = input.getAttribute('aria-describedby')?.split(' ')[0];
  return (id && document.getElementById(id)?.textContent) || null;
}

export { testUser } from './fixtures';

/** The English text of a key, as the screen or the server would write it, for assertions. */
export function en(key: string, options?: Record<string, unknown>): string {
  const text = i18n.t(key, options);
  return text === key ? server.t(key, options) : text;
}


