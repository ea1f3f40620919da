// First: before any zod schema is built (see the module).
import './zodJitless';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, loadAddressedPage } from './App';

const root = document.getElementById('root');
if (!root) throw new Error('missing #root');
// The addressed page first, so that React's first render is that page: it replaces the prerendered
// first screen in one step. A page that failed to load is left to the render to report.
void loadAddressedPage(window.location.hash.replace(/^#/, ''))
  .catch(() => undefined)
  .then(() =>
    // A transition: the first render yields to the browser every few milliseconds instead of
    // holding the main thread for its whole length (the first screen is already painted).
    startTransition(() =>
      createRoot(root).render(
        <StrictMode>
          <App />
        </StrictMode>,
      ),
    ),
  );
