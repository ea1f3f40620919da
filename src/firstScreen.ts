/**
 * The prerendered first screen (scripts/prerender.ts) and the app, which takes it over by
 * hydrating it (startApp in App.tsx): React keeps the markup the visitor already sees instead of
 * building the same page again.
 */

/** On #root: the address (`location.hash`) whose first screen the first-screen script put there. */
export const FIRST_SCREEN_ATTRIBUTE = 'data-first-screen';
