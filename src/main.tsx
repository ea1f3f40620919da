// First: before any zod schema is built (see the module).
import './zodJitless';

const root = document.getElementById('root');
if (!root) throw new Error('missing #root');

// In two steps, each module graph evaluated in a task of its own: React, MUI and emotion (the
// shell chunk; MUI builds its default theme as it runs), then the app with its routes and strings
// (startApp in App.tsx renders it). As one graph they were one task, the longest of a phone's
// first second. Both download from the start: index.html preloads them
// (scripts/routePreload.ts). No JSX here: its runtime would be a static import, and the shell
// chunk with it.
void import('react')
  .then(() => new Promise((resolve) => setTimeout(resolve, 0)))
  .then(() => import('./App'))
  .then(({ startApp }) => startApp(root));
