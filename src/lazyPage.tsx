import { use, type ComponentType } from 'react';

export interface PageModule {
  default: ComponentType;
}

/** A thenable React's `use` reads without suspending once it is settled (React's own protocol). */
type Tracked<T> = Promise<T> & { status?: 'pending' | 'fulfilled' | 'rejected'; value?: T; reason?: unknown };

export interface LazyComponent<P extends object> {
  (props: P): React.JSX.Element;
  /** Starts loading (once); settles when the component renders without suspending. */
  load(): Promise<{ default: ComponentType<P> }>;
}
export type LazyPage = LazyComponent<object>;

/**
 * Like React.lazy, but loadable ahead of the render: a component whose module was loaded
 * beforehand renders at once, where React.lazy suspends at least once and shows its fallback. That
 * matters for the first screen, which replaces the prerendered markup (scripts/prerender.ts) and
 * must not blank it out meanwhile, and for a part a page shows later (the invited page's form):
 * React commits a revealed Suspense boundary only after a throttle, in a task of its own.
 */
export function lazyComponent<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): LazyComponent<P> {
  type Module = { default: ComponentType<P> };
  let tracked: Tracked<Module> | undefined;
  const start = (): Tracked<Module> => {
    if (tracked) return tracked;
    const promise: Tracked<Module> = load();
    promise.then(
      (module) => {
        promise.status = 'fulfilled';
        promise.value = module;
      },
      (reason: unknown) => {
        promise.status = 'rejected';
        promise.reason = reason;
      },
    );
    tracked = promise;
    return promise;
  };
  const Lazy = (props: P) => {
    const loading: Promise<Module> = start();
    const { default: Component } = use(loading);
    return <Component {...props} />;
  };
  return Object.assign(Lazy, { load: () => start() });
}

/** A page of the route table, loaded by lazyComponent. */
export function lazyPage(load: () => Promise<PageModule>): LazyPage {
  return lazyComponent(load);
}
