// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CurrentUser } from './domain/auth/schemas';
import { createSelectionStore, SELECTION_KEY, type ProjectRef } from './companySelection';
import { testUser } from './testing/fixtures';

const zeta = { _id: 'c-zeta', name: 'Zeta Labs', role: 'admin' as const };
const acme = { _id: 'c-acme', name: 'acme', role: 'admin' as const };
const beta = { _id: 'c-beta', name: 'Beta Corp', role: 'admin' as const };
const withCompanies = (companies: CurrentUser['companies']): CurrentUser => ({ ...testUser, emailVerified: true, onboarding: null, companies });

const PROJECTS: Record<string, ProjectRef[]> = {
  'c-zeta': [{ _id: 'p-zeta-1', name: 'Default project' }],
  'c-acme': [
    { _id: 'p-acme-1', name: 'Default project' },
    { _id: 'p-acme-2', name: 'Mobile' },
  ],
  'c-beta': [{ _id: 'p-beta-1', name: 'Default project' }],
};

function setup(user: CurrentUser | null = withCompanies([zeta, acme, beta])) {
  let current = user;
  const userListeners = new Set<() => void>();
  const loadProjects = vi.fn(async (id: string) => PROJECTS[id] ?? []);
  const store = createSelectionStore({
    getUser: () => current,
    subscribeUser: (l) => {
      userListeners.add(l);
      return () => userListeners.delete(l);
    },
    loadProjects,
  });
  const changes = vi.fn();
  const unsubscribe = store.subscribe(changes);
  const setUser = (next: CurrentUser | null) => {
    current = next;
    for (const l of userListeners) l();
  };
  return { store, loadProjects, changes, unsubscribe, setUser };
}

/** Lets the mocked project loads answer. */
const settle = () => new Promise((r) => setTimeout(r, 0));

beforeEach(() => localStorage.clear());
afterEach(() => vi.restoreAllMocks());

describe('selection store', () => {
  it('lists the user companies sorted by name and falls back to the first, with its first project', async () => {
    const { store, loadProjects } = setup();
    expect(store.getSnapshot().companies.map((c) => c.name)).toEqual(['acme', 'Beta Corp', 'Zeta Labs']);
    expect(store.getSnapshot()).toMatchObject({ companyId: 'c-acme', company: acme, projectId: null, projects: null });
    await settle();
    expect(loadProjects).toHaveBeenCalledWith('c-acme');
    expect(store.getSnapshot()).toMatchObject({ companyId: 'c-acme', projectId: 'p-acme-1' });
  });

  it('selects a company the user belongs to, remembers it in localStorage and tells subscribers', async () => {
    const { store, changes } = setup();
    await settle();
    changes.mockClear();
    expect(store.select('c-zeta')).toBe(true);
    expect(changes).toHaveBeenCalled();
    expect(store.getSnapshot()).toMatchObject({ companyId: 'c-zeta', company: zeta });
    await settle();
    expect(store.getSnapshot().projectId).toBe('p-zeta-1');
    expect(JSON.parse(localStorage.getItem(SELECTION_KEY) ?? '{}')).toEqual({ companyId: 'c-zeta', projectId: null });

    // A new page load (a new store) picks the remembered company up again.
    const again = setup();
    expect(again.store.getSnapshot().companyId).toBe('c-zeta');
  });

  it('ignores a company the user does not belong to and keeps the current one', async () => {
    const { store } = setup();
    store.select('c-beta');
    await settle();
    expect(store.select('c-foreign', 'p-x')).toBe(false);
    expect(store.getSnapshot()).toMatchObject({ companyId: 'c-beta', projectId: 'p-beta-1' });
    expect(JSON.parse(localStorage.getItem(SELECTION_KEY) ?? '{}')).toEqual({ companyId: 'c-beta', projectId: null });
  });

  it('takes a route project of the company, and falls back to the first project for an unknown one', async () => {
    const { store } = setup();
    store.select('c-acme', 'p-acme-2');
    // Before the projects are known, the route's project stands.
    expect(store.getSnapshot().projectId).toBe('p-acme-2');
    await settle();
    expect(store.getSnapshot().projectId).toBe('p-acme-2');
    store.select('c-acme', 'p-nope');
    expect(store.getSnapshot().projectId).toBe('p-acme-1');
  });

  it('falls back to another company when the selected one is gone from the user, and to none without companies', async () => {
    const { store, setUser } = setup();
    store.select('c-beta');
    await settle();
    setUser(withCompanies([zeta, acme]));
    expect(store.getSnapshot().companyId).toBe('c-acme');
    await settle();
    expect(store.getSnapshot().projectId).toBe('p-acme-1');
    setUser(withCompanies([]));
    expect(store.getSnapshot()).toMatchObject({ companyId: null, projectId: null, company: null, companies: [] });
    // Signed out: nothing selected, but the remembered choice is kept for the next sign-in.
    setUser(null);
    expect(store.getSnapshot().companyId).toBeNull();
    setUser(withCompanies([zeta, acme, beta]));
    expect(store.getSnapshot().companyId).toBe('c-beta');
  });

  it('shows a renamed company under its new name and in its new place', () => {
    const { store, setUser } = setup();
    setUser(withCompanies([{ ...zeta, name: 'Alpha Zeta' }, acme, beta]));
    expect(store.getSnapshot().companies.map((c) => c.name)).toEqual(['acme', 'Alpha Zeta', 'Beta Corp']);
  });

  it('keeps the same snapshot while nothing changed, as useSyncExternalStore requires', async () => {
    const { store, setUser } = setup();
    await settle();
    const before = store.getSnapshot();
    setUser(withCompanies([zeta, acme, beta]));
    expect(store.getSnapshot()).toBe(before);
  });

  it('ignores a malformed remembered choice and loads projects only while read', async () => {
    localStorage.setItem(SELECTION_KEY, '{not json');
    const { store, loadProjects, unsubscribe } = setup();
    expect(store.getSnapshot().companyId).toBe('c-acme');
    await settle();
    unsubscribe();
    loadProjects.mockClear();
    store.select('c-zeta');
    await settle();
    expect(loadProjects).not.toHaveBeenCalled();
  });

  it('uses projects a page already fetched, and fetches them again once forgotten', async () => {
    const { store, loadProjects } = setup();
    store.setProjects('c-zeta', [{ _id: 'p-fed', name: 'Fed' }]);
    store.select('c-zeta');
    expect(store.getSnapshot().projectId).toBe('p-fed');
    expect(loadProjects).not.toHaveBeenCalledWith('c-zeta');
    store.forgetProjects('c-zeta');
    await settle();
    expect(loadProjects).toHaveBeenCalledWith('c-zeta');
    expect(store.getSnapshot().projectId).toBe('p-zeta-1');
  });

  it('keeps the selection when loading projects fails', async () => {
    const { store, loadProjects } = setup();
    loadProjects.mockRejectedValueOnce(new Error('offline'));
    store.select('c-beta', 'p-beta-1');
    await settle();
    expect(store.getSnapshot()).toMatchObject({ companyId: 'c-beta', projectId: 'p-beta-1', projects: null });
  });
});
