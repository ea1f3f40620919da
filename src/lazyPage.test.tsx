// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { lazyPage } from './lazyPage';

afterEach(cleanup);

function deferred() {
  let resolve: (m: { default: () => React.JSX.Element }) => void = () => undefined;
  const promise = new Promise<{ default: () => React.JSX.Element }>((r) => (resolve = r));
  return { promise, resolve };
}

describe('lazyPage', () => {
  it('renders a page loaded beforehand in the first commit, without its fallback', async () => {
    const Page = lazyPage(() => Promise.resolve({ default: () => <h1>Sign in</h1> }));
    await Page.load();
    render(
      <Suspense fallback={<p>loading</p>}>
        <Page />
      </Suspense>,
    );
    // Synchronously after the first render: this is what replaces the prerendered first screen.
    expect(screen.getByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(screen.queryByText('loading')).toBeNull();
  });

  it('suspends on a page not loaded yet, then shows it; the module is asked for once', async () => {
    const { promise, resolve } = deferred();
    let calls = 0;
    const Page = lazyPage(() => {
      calls += 1;
      return promise;
    });
    await act(async () => {
      render(
        <Suspense fallback={<p>loading</p>}>
          <Page />
        </Suspense>,
      );
    });
    expect(screen.getByText('loading')).toBeTruthy();
    void Page.load();
    await act(async () => resolve({ default: () => <h1>Pricing</h1> }));
    expect(await screen.findByRole('heading', { name: 'Pricing' })).toBeTruthy();
    expect(calls).toBe(1);
  });

  it('load() answers the same promise, which rejects when the module fails', async () => {
    const Page = lazyPage(() => Promise.reject(new Error('offline')));
    const first = Page.load();
    expect(Page.load()).toBe(first);
    await expect(first).rejects.toThrow('offline');
  });
});
