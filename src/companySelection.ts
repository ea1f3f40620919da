import { useSyncExternalStore } from 'react';
import { companiesApi } from '../dataProvider/companies';
import type { CurrentUser } from './domain/auth/schemas';
import { session } from './session';

/**
 * The selected company and project (SPEC §3 Stores: the project store holds the projects and the
 * selected project). Kept free of react-admin like the session store. What the user chose is
 * remembered in localStorage; what is selected is always one of the signed-in user's companies:
 * the chosen one while the user belongs to it, else the first by name.
 */
export interface CompanyRef {
  _id: string;
  name: string;
}

export interface ProjectRef {
  _id: string;
  name: string;
}

export interface Selection {
  companyId: string | null;
  projectId: string | null;
  /** The selected company as the user's company list names it. */
  company: CompanyRef | null;
  /** The user's companies, sorted by name: what the company switcher lists. */
  companies: readonly CompanyRef[];
  /** The selected company's projects; null until loaded. */
  projects: readonly ProjectRef[] | null;
}

export const SELECTION_KEY = 'beacon.selection';

interface Wanted {
  companyId: string | null;
  projectId: string | null;
}

export interface SelectionDeps {
  getUser: () => CurrentUser | null;
  subscribeUser: (listener: () => void) => () => void;
  loadProjects: (companyId: string) => Promise<readonly ProjectRef[]>;
  storage?: () => Storage | null;
}

function browserStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

const byName = (a: CompanyRef, b: CompanyRef) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) || a._id.localeCompare(b._id);

export const sortCompanies = (companies: readonly CompanyRef[]): CompanyRef[] => [...companies].sort(byName);

const isId = (value: unknown): value is string => typeof value === 'string' && value.length > 0 && value.length <= 64;

export function createSelectionStore({ getUser, subscribeUser, loadProjects, storage = browserStorage }: SelectionDeps) {
  const listeners = new Set<() => void>();
  const projectsOf = new Map<string, readonly ProjectRef[]>();
  // Companies whose projects were asked for; a failed load is not retried until asked again.
  const requested = new Set<string>();
  let wanted = readWanted();
  let lastUser: CurrentUser | null = null;
  let lastCompanies: readonly CompanyRef[] = [];
  let snapshot: Selection = resolve();

  function readWanted(): Wanted {
    try {
      const parsed = JSON.parse(storage()?.getItem(SELECTION_KEY) ?? 'null') as { companyId?: unknown; projectId?: unknown } | null;
      return { companyId: isId(parsed?.companyId) ? parsed.companyId : null, projectId: isId(parsed?.projectId) ? parsed.projectId : null };
    } catch {
      return { companyId: null, projectId: null };
    }
  }

  function saveWanted() {
    try {
      storage()?.setItem(SELECTION_KEY, JSON.stringify(wanted));
    } catch {
      // A full or blocked storage only forgets the choice on the next visit.
    }
  }

  /** The sorted company list, the same array while the user's companies are unchanged. */
  function companiesOf(user: CurrentUser | null): readonly CompanyRef[] {
    if (user === lastUser) return lastCompanies;
    lastUser = user;
    const next = sortCompanies(user?.companies ?? []);
    const same = next.length === lastCompanies.length && next.every((c, i) => c._id === lastCompanies[i]?._id && c.name === lastCompanies[i]?.name);
    if (!same) lastCompanies = next;
    return lastCompanies;
  }

  function resolve(): Selection {
    const companies = companiesOf(getUser());
    const company = companies.find((c) => c._id === wanted.companyId) ?? companies[0] ?? null;
    const companyId = company?._id ?? null;
    const projects = companyId ? (projectsOf.get(companyId) ?? null) : null;
    const wantedProject = companyId === wanted.companyId ? wanted.projectId : null;
    let projectId: string | null;
    if (projects) projectId = projects.find((p) => p._id === wantedProject)?._id ?? projects[0]?._id ?? null;
    // Until the projects are known, the project the user chose for this company stands.
    else projectId = wantedProject;
    return { companyId, projectId, company, companies, projects };
  }

  function load(companyId: string) {
    if (requested.has(companyId)) return;
    requested.add(companyId);
    loadProjects(companyId).then(
      (projects) => setProjects(companyId, projects),
      () => undefined,
    );
  }

  /** Projects are fetched only while someone reads the selection (a mounted page). */
  function loadMissing(next: Selection) {
    if (listeners.size && next.companyId && !next.projects) load(next.companyId);
  }

  function update() {
    const next = resolve();
    loadMissing(next);
    const prev = snapshot;
    if (prev.companyId === next.companyId && prev.projectId === next.projectId && prev.company === next.company && prev.companies === next.companies && prev.projects === next.projects) return;
    snapshot = next;
    for (const listener of [...listeners]) listener();
  }

  /** Stores a company's projects, e.g. from a page that fetched the company anyway. */
  function setProjects(companyId: string, projects: readonly ProjectRef[]) {
    const old = projectsOf.get(companyId);
    const same = old && old.length === projects.length && old.every((p, i) => p._id === projects[i]?._id && p.name === projects[i]?.name);
    if (!same) projectsOf.set(companyId, projects.map((p) => ({ _id: p._id, name: p.name })));
    requested.add(companyId);
    update();
  }

  subscribeUser(update);

  return {
    subscribe(listener: () => void) {
      listeners.add(listener);
      loadMissing(snapshot);
      return () => void listeners.delete(listener);
    },
    getSnapshot: () => snapshot,
    /**
     * Selects a company (and, optionally, one of its projects) the user belongs to; anything else
     * is ignored and the current selection stays. True when the company was accepted.
     */
    select(companyId: string, projectId: string | null = null): boolean {
      if (!companiesOf(getUser()).some((c) => c._id === companyId)) return false;
      if (wanted.companyId !== companyId || projectId !== null) {
        wanted = { companyId, projectId: isId(projectId) ? projectId : null };
        saveWanted();
      }
      // An explicit choice may retry a company whose projects failed to load.
      if (!projectsOf.has(companyId)) requested.delete(companyId);
      update();
      return true;
    },
    setProjects,
    /** Forgets the known projects, so they are fetched again (after projects change). */
    forgetProjects(companyId?: string) {
      if (companyId) {
        projectsOf.delete(companyId);
        requested.delete(companyId);
      } else {
        projectsOf.clear();
        requested.clear();
      }
      update();
    },
  };
}

export type SelectionStore = ReturnType<typeof createSelectionStore>;

export const selection = createSelectionStore({
  getUser: () => session.getSnapshot().user,
  subscribeUser: session.subscribe,
  loadProjects: async (companyId) => (await companiesApi.get(companyId)).projects,
});

export function useSelection(): Selection {
  return useSyncExternalStore(selection.subscribe, selection.getSnapshot);
}
