/**
 * The prerendered first screen (scripts/prerender.ts) and the app's first render, which takes it
 * over by hydrating it (startApp in App.tsx): React keeps the markup the visitor already sees
 * instead of building the same page again. That works only while the app's first render makes
 * exactly the markup the prerender made, so what the prerender pins, that render pins too.
 */

/** On #root: the address (`location.hash`) whose first screen the first-screen script put there. */
export const FIRST_SCREEN_ATTRIBUTE = 'data-first-screen';

let pinned = false;

/**
 * True while the first screen is rendered: by the prerender, and by the app's first render as it
 * takes that screen over. What is picked at random takes its first choice in those renders, and
 * draws once the page is the app's.
 */
export const firstScreenPinned = (): boolean => pinned;

export function pinFirstScreen(on: boolean): void {
  pinned = on;
}
