// @vitest-environment happy-dom
import { act, waitFor } from '@testing-library/react';
import type { Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pickerSource, splitStyles } from '../scripts/firstScreenScript';
import { prerenderedPaths } from '../scripts/prerender';
import { startApp } from './App';
import { clientConfig } from './clientConfig';
import { FIRST_SCREEN_ATTRIBUTE } from './firstScreen';
import { renderFirstScreen } from './prerender';

/**
 * The app takes the prerendered first screen over by hydrating it. React's development
 * build, which runs here, reports any difference between the markup and the app's first render,
 * attributes included (ids from `useId`, class names, image sources); its production build would
 * silently keep the stale markup, or throw the screen away and render it again.
 */
const { pages, aliases } = prerenderedPaths();

let started: Root | null = null;
let reports: unknown[][] = [];

/** A load of `hash` as the built index.html makes it: the first-screen script's markup in #root. */
async function firstScreenOf(hash: string, page: string, googleSignIn = false) {
  // As the first-screen script puts it in: the markup without its style tags.
  const markup = splitStyles({ page: await renderFirstScreen(page, { googleSignIn }) }).pages.page?.[1] ?? '';
  window.location.hash = hash;
  const root = Object.assign(document.createElement('div'), { id: 'root', innerHTML: markup });
  root.setAttribute('inert', '');
  root.setAttribute(FIRST_SCREEN_ATTRIBUTE, hash);
  document.body.append(root);
  return root;
}

/** Starts the app over `root`'s first screen, and checks that it was hydrated, not built again. */
async function expectHydrated(root: HTMLElement) {
  expect(root.querySelector('h1')).not.toBeNull();
  // What happens to the first screen's elements until the app releases it (takes `inert` off).
  // A page's own effects may go on elsewhere afterwards (the magic link without a token).
  const records: MutationRecord[] = [];
  const changes = new MutationObserver((list) => void records.push(...list));
  changes.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ['inert'] });
  await start(root);
  records.push(...changes.takeRecords());
  changes.disconnect();
  expect(reports).toEqual([]);
  const released = records.findIndex((r) => r.type === 'attributes' && r.target === root);
  expect(released).toBeGreaterThanOrEqual(0);
  // Nothing built again: no element of the first screen removed, none added, before that.
  expect(records.slice(0, released).filter((r) => r.type === 'childList')).toEqual([]);
}

async function start(root: HTMLElement) {
  await act(async () => {
    started = await startApp(root);
  });
  await waitFor(() => expect(root.hasAttribute('inert')).toBe(false));
  await act(async () => {});
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  reports = [];
  // The API has not answered yet (the catalogue, the content service): the moment of hydration.
  vi.stubGlobal('fetch', vi.fn(() => new Promise<never>(() => undefined)));
  for (const level of ['error', 'warn'] as const) vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void reports.push(args));
});
afterEach(() => {
  act(() => started?.unmount());
  started = null;
  clientConfig.googleClientId = null;
  document.getElementById('root')?.remove();
  window.location.hash = '';
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('the app over the prerendered first screen', () => {
  it.each(pages)('%s: hydrates it, keeping every element, with no difference reported', async (page) => {
    await expectHydrated(await firstScreenOf(`#${page}`, page));
  });

  it.each(['/account/signin', '/account/create'])('%s with Google sign-in: hydrates it, the Google row included', async (page) => {
    const root = await firstScreenOf(`#${page}`, page, true);
    expect(root.querySelector('[data-testid="google-button"]')).not.toBeNull();
    await expectHydrated(root);
  });

  it('renders afresh when the address changed after the first screen went in (no hydration of a stale screen)', async () => {
    const root = await firstScreenOf('#/account/signin', '/account/signin');
    const heading = root.querySelector('h1');
    window.location.hash = '#/forgot-password';
    await start(root);
    await waitFor(() => expect(root.querySelector('h1')?.textContent).toBe('Reset your password'));
    expect(heading?.isConnected).toBe(false);
    expect(reports).toEqual([]);
  });

  it('renders again, and says so as a warning, when the first screen does not match the app', async () => {
    const root = await firstScreenOf('#/account/signin', '/account/signin');
    const heading = root.querySelector('h1');
    if (heading) heading.textContent = 'Last year’s heading';
    await start(root);
    await waitFor(() => expect(root.querySelector('h1')?.textContent).toBe('Sign in'));
    expect(heading?.isConnected).toBe(false);
    expect(root.querySelectorAll('h1')).toHaveLength(1);
    expect(reports.length).toBeGreaterThan(0);
  });

  it.each(Object.entries(aliases))('%s: the first-screen script goes on to %s, and the app hydrates that page', async (address, target) => {
    // The build's own script source, as index.html runs it, over the target's rendered page.
    const source = pickerSource({ [target]: await renderFirstScreen(target, { googleSignIn: false }) }, { aliases, queries: {} }, clientConfig.productName);
    const config = Object.assign(document.createElement('meta'), { name: 'client-config', content: JSON.stringify({ productName: clientConfig.productName }) });
    document.head.append(config);
    const root = Object.assign(document.createElement('div'), { id: 'root' });
    document.body.append(root);
    window.location.hash = `#${address}`;
    try {
      new Function(source)();
      expect(window.location.hash).toBe(`#${target}`);
      expect(root.getAttribute(FIRST_SCREEN_ATTRIBUTE)).toBe(`#${target}`);
      await expectHydrated(root);
    } finally {
      config.remove();
    }
  });
});
