import type * as AuthForms from './authForms';

// Starts loading when the first front-door page runs; pages render without waiting for it.
let loaded: typeof AuthForms | null = null;
export const authForms: Promise<typeof AuthForms> = import('./authForms').then((module) => (loaded = module));

/** The validation module when it has arrived (it has by the time any form was checked), else null. */
export const loadedAuthForms = (): typeof AuthForms | null => loaded;
