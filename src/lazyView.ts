import { lazy, type ComponentType } from 'react';

/**
 * A module's named component, loaded on its first render (React.lazy, which takes a default export):
 * how the admin area's views stay out of the main app's chunk until their route is opened.
 */
export function lazyView<M extends Record<K, ComponentType>, K extends keyof M>(load: () => Promise<M>, name: K) {
  return lazy(async () => ({ default: (await load())[name] }));
}
