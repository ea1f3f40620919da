// First: before any zod schema is built (see the module).
import './zodJitless';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, loadAddressedPage } from './App';
import { hashAddress } from './hashAddress';

const root = document.getElementById('root');
if (!root) throw new Error('missing #root');
// The addressed page first, so that React's first render is that page: it replaces the prerendered
// first screen in one step. A page that failed to load is left to the render to report.
void loadAddressedPage(hashAddress())
  .catch(() => undefined)
  // As a transition, in slices the browser can interrupt: the first screen is painted already, and
  // one long render task held a phone's main thread for a third of a second (issue 17). An address
  // that changes meanwhile is taken up after the first commit (AddressCatchUp in App.tsx).
  .then(() =>
    startTransition(() =>
      createRoot(root).render(
        <StrictMode>
          <App />
        </StrictMode>,
      ),
    ),
  );
