import type * as AuthForms from './authForms';

// Starts loading when the first front-door page runs; pages render without waiting for it. Asked
// for from a timer: evaluating the schemas (zod builds every one) is then a task of its own on a
// phone, not more work in the task that renders the page.
let loaded: typeof AuthForms | null = null;
export const authForms: Promise<typeof AuthForms> = new Promise((resolve) => setTimeout(resolve, 0))
  .then(() => import('./authForms'))
  .then((module) => (loaded = module));

/** The validation module when it has arrived (it has by the time any form was checked), else null. */
export const loadedAuthForms = (): typeof AuthForms | null => loaded;
