/**
 * What react-admin gets for `react-router-dom` in the production build (see vite.config.ts).
 * react-admin only creates a data router of its own when it is not inside one, and the shell
 * always mounts it inside its HashRouter; without these stand-ins the whole data-router machinery
 * (about 20 kB gzipped) would ride in the shell's entry chunk on every front-door page.
 */
export * from 'react-router';

function notInThisApp(name: string): never {
  throw new Error(`${name} is not part of this build: react-admin runs inside the shell's HashRouter`);
}

export function createHashRouter(): never {
  return notInThisApp('createHashRouter');
}
export function createMemoryRouter(): never {
  return notInThisApp('createMemoryRouter');
}
export function RouterProvider(): never {
  return notInThisApp('RouterProvider');
}
export function HydratedRouter(): never {
  return notInThisApp('HydratedRouter');
}
