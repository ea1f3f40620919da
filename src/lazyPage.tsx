import { use, type ComponentType } from 'react';

export interface PageModule {
  default: ComponentType;
}

/** A thenable React's `use` reads without suspending once it is settled (React's own protocol). */
type Tracked<T> = Promise<T> & { status?: 'pending' | 'fulfilled' | 'rejected'; value?: T; reason?: unknown };

export interface LazyPage {
  (): React.JSX.Element;
  /** Starts loading (once); settles when the page renders without suspending. */
  load(): Promise<PageModule>;
}

/**
 * Like React.lazy, but loadable ahead of the render: a page whose module was loaded beforehand
 * renders at once, where React.lazy suspends at least once and shows its fallback for a frame.
 * That matters for the first screen, which replaces the prerendered markup (scripts/prerender.ts)
 * and must not blank it out meanwhile.
 */
export function lazyPage(load: () => Promise<PageModule>): LazyPage {
  let tracked: Tracked<PageModule> | undefined;
  const start = (): Tracked<PageModule> => {
    if (tracked) return tracked;
    const promise: Tracked<PageModule> = load();
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
  const Page = () => {
    const loading: Promise<PageModule> = start();
    const { default: Component } = use(loading);
    return <Component />;
  };
  return Object.assign(Page, { load: () => start() });
}
