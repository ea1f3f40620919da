import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { config as zodConfig } from 'zod/v4/core';
import { App } from './App';

// Our CSP forbids eval; without this zod probes for it, and the browser reports the probe as a
// CSP violation (Lighthouse best practices).
zodConfig({ jitless: true });

const root = document.getElementById('root');
if (!root) throw new Error('missing #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
