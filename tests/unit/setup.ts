import { configure } from '@testing-library/dom';
import { afterAll } from 'vitest';
import { closeDialog, getDialogs } from '../../src/ui/dialog/dialogStore';
import { clearToasts } from '../../src/ui/toast/toastStore';

// findBy… and waitFor wait for what the user sees: a busy CI machine can take more than the default
// second to load a page's lazy parts, and a wait ends as soon as the thing shows.
configure({ asyncUtilTimeout: 5_000 });

// Files in a worker share their modules and page (vite.config.ts): the toasts and dialogs a file
// left queued, and what it stored, would show in the next file's page.
afterAll(() => {
  clearToasts();
  for (const dialog of getDialogs()) closeDialog(dialog.id, false);
  if (typeof localStorage !== 'undefined') localStorage.clear();
  if (typeof sessionStorage !== 'undefined') sessionStorage.clear();
});
