// First: before any zod schema is built (see the module).
import './zodJitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, loadAddressedPage } from './App';

const root = document.getElementById('root');
if (!root) throw new Error('missing #root');
// The addressed page first, so that React's first render is that page: it replaces the prerendered
// first screen in one step. A page that failed to load is left to the render to report.
void loadAddressedPage(window.location.hash.replace(/^#/, ''))
  .catch(() => undefined)
  // Not as a transition, though the first screen is painted already: a render that yields lets the
  // address change between the router reading it and listening for changes, and shows the old page.
  .then(() =>
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
