/** The app's address: what follows `#` in the browser's address bar (`/` when nothing does). */
export const hashAddress = (): string => window.location.hash.replace(/^#/, '') || '/';
