import { useSyncExternalStore } from 'react';
import type { BillingCycle } from '../../src/domain/constants';
import type { PendingConfiguration, ProvisionSummary } from '../../src/domain/orders/schemas';
import { UTM_PARAMS, type UtmTags } from '../../src/session';
import type { Order } from './options';

/**
 * SPEC §3 Server creation state, one store for the signed-in and the pre-login wizard. Kept in
 * sessionStorage so a reload keeps the order; the pre-login order also leaves a complete-setup
 * marker in localStorage, because the verification link may open in another tab.
 */
export interface WizardPricing {
  /** Decimal string from the shared engine, per period, before tax. */
  total: string;
  currency: 'USD';
  isDiscountApplied: boolean;
  discountCode: string | null;
  discountedTotal: { subtotal: string; tax: string; total: string; discount: string; credit: string; balance: string } | null;
  /** The server's POST /deployments/pricing: pending, agreeing, or disagreeing/failing. */
  check: 'pending' | 'confirmed' | 'failed';
}

export interface WizardState {
  name: string;
  isActiveServerFree: boolean;
  activePaymentPeriod: BillingCycle;
  /** The created (or edited) server. */
  serverId: string | null;
  provisionSummary: ProvisionSummary | null;
  inProgress: boolean;
  pricing: WizardPricing | null;
  subscription: (Order & { _id: string | null }) | null;
  /** cly_id and utm_* of the query that opened the wizard. */
  tracking: { clyId: string | null; utm: UtmTags };
  /** The idempotency key of the current submission attempt and the body it was made for. */
  submission: { key: string; body: string } | null;
  /** The order was chosen in the pre-login wizard: its payment continues that wizard's step count. */
  prelogin?: boolean;
}

export const WIZARD_KEY = 'beacon.wizard';
export const COMPLETE_SETUP_KEY = 'beacon.wizard.completeSetup';
/** The current submission attempt, shared by the browser's tabs so two tabs sending one order share its key. */
export const SUBMISSION_KEY = 'beacon.wizard.submission';
/** A complete-setup marker older than this is not acted on: the visitor has moved on. */
export const COMPLETE_SETUP_MAX_AGE_MS = 7 * 24 * 3_600_000;

export const emptyState = (name: string): WizardState => ({
  name,
  isActiveServerFree: false,
  activePaymentPeriod: 'month',
  serverId: null,
  provisionSummary: null,
  inProgress: false,
  pricing: null,
  subscription: null,
  tracking: { clyId: null, utm: {} },
  submission: null,
});

const safe = <T>(read: () => T): T | null => {
  try {
    return read();
  } catch {
    return null;
  }
};

export interface WizardStoreDeps {
  session: () => Storage | null;
  local: () => Storage | null;
  newKey: () => string;
  now: () => number;
}

const browserDeps: WizardStoreDeps = {
  session: () => safe(() => (typeof sessionStorage === 'undefined' ? null : sessionStorage)),
  local: () => safe(() => (typeof localStorage === 'undefined' ? null : localStorage)),
  newKey: () => crypto.randomUUID(),
  now: () => Date.now(),
};

function isState(value: unknown): value is WizardState {
  const v = value as Partial<WizardState> | null;
  return Boolean(v && typeof v.name === 'string' && (v.activePaymentPeriod === 'month' || v.activePaymentPeriod === 'year') && typeof v.inProgress === 'boolean');
}

export function createWizardStore(deps: WizardStoreDeps = browserDeps) {
  const listeners = new Set<() => void>();
  let state: WizardState = read() ?? emptyState('');

  function read(): WizardState | null {
    const parsed = safe(() => JSON.parse(deps.session()?.getItem(WIZARD_KEY) ?? 'null') as unknown);
    return isState(parsed) ? parsed : null;
  }

  function set(next: WizardState) {
    state = next;
    safe(() => deps.session()?.setItem(WIZARD_KEY, JSON.stringify(state)));
    for (const listener of [...listeners]) listener();
  }

  const update = (patch: Partial<WizardState> | ((s: WizardState) => Partial<WizardState>)) => set({ ...state, ...(typeof patch === 'function' ? patch(state) : patch) });

  return {
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    get: () => state,
    update,

    /**
     * SPEC §4: a new wizard resets its state unless one is already in progress. `order` is the
     * default order (default paid plan and options), or a carried-over choice (pricing's Order).
     */
    begin(defaults: { name: string; order: Order | null; cycle?: BillingCycle }, force = false) {
      if (state.inProgress && state.subscription && !force) return false;
      safe(() => deps.local()?.removeItem(SUBMISSION_KEY));
      set({ ...emptyState(defaults.name), activePaymentPeriod: defaults.cycle ?? 'month', subscription: defaults.order ? { ...defaults.order, _id: null } : null, inProgress: true, tracking: state.tracking });
      return true;
    },

    setOrder(order: Order) {
      update((s) => ({ subscription: { ...order, _id: s.subscription?._id ?? null } }));
    },

    setPeriod(cycle: BillingCycle) {
      update({ activePaymentPeriod: cycle });
    },

    /** Keeps cly_id and the utm tags of the query that opened the wizard. */
    track(search: string) {
      const query = new URLSearchParams(search);
      const clyId = query.get('cly_id')?.trim().slice(0, 200) || null;
      const utm: UtmTags = {};
      for (const key of UTM_PARAMS) {
        const value = query.get(key)?.trim();
        if (value) utm[key] = value.slice(0, 200);
      }
      if (clyId || Object.keys(utm).length) update((s) => ({ tracking: { clyId: clyId ?? s.tracking.clyId, utm: { ...s.tracking.utm, ...utm } } }));
    },

    /**
     * The idempotency key for submitting `body`: made once per submission attempt and kept (with
     * the wizard, in storage) so a retry, a reload or a second click sends the same key and the
     * server makes one server. A different body is a new attempt with a new key.
     */
    submissionKey(body: unknown): string {
      const text = JSON.stringify(body);
      if (state.submission?.body === text) return state.submission.key;
      const shared = safe(() => JSON.parse(deps.local()?.getItem(SUBMISSION_KEY) ?? 'null') as { key?: unknown; body?: unknown } | null);
      const key = shared?.body === text && typeof shared.key === 'string' ? shared.key : deps.newKey();
      safe(() => deps.local()?.setItem(SUBMISSION_KEY, JSON.stringify({ key, body: text })));
      update({ submission: { key, body: text } });
      return key;
    },

    /** The server exists: remember it and forget the attempt's key. */
    submitted(serverId: string, provisionSummary: ProvisionSummary | null, free: boolean) {
      update({ serverId, provisionSummary, isActiveServerFree: free, submission: null });
    },

    /** SPEC §4: closing sets inProgress false. */
    close() {
      update({ inProgress: false, submission: null });
    },

    /** Pre-login: the finished configuration, kept for after the verification link signs in. */
    saveCompleteSetup() {
      safe(() => deps.local()?.setItem(COMPLETE_SETUP_KEY, JSON.stringify({ savedAt: deps.now(), state })));
    },

    /** The order as the account keeps it at sign-up (null when there is none to keep). */
    pendingConfiguration(): PendingConfiguration | null {
      const order = state.subscription;
      if (!order) return null;
      const { _id: _unused, ...rest } = order;
      void _unused;
      return { name: state.name.trim().slice(0, 64), cycle: state.activePaymentPeriod, order: rest };
    },

    /** Restores the configuration the account kept (another device's sign-up) as the wizard in progress. */
    restoreConfiguration(saved: PendingConfiguration) {
      set({ ...emptyState(saved.name), activePaymentPeriod: saved.cycle, subscription: { ...saved.order, _id: null }, inProgress: true, tracking: state.tracking, prelogin: true });
    },

    /** The saved configuration, if a fresh one exists (read without removing it). */
    peekCompleteSetup(): WizardState | null {
      const saved = safe(() => JSON.parse(deps.local()?.getItem(COMPLETE_SETUP_KEY) ?? 'null') as { savedAt?: unknown; state?: unknown } | null);
      if (!saved || typeof saved.savedAt !== 'number' || deps.now() - saved.savedAt > COMPLETE_SETUP_MAX_AGE_MS || !isState(saved.state)) return null;
      return saved.state;
    },

    /** Restores the saved configuration as the wizard in progress (the `continue` submit). */
    restoreCompleteSetup(): boolean {
      const saved = this.peekCompleteSetup();
      if (!saved) return false;
      set({ ...saved, inProgress: true, serverId: null, provisionSummary: null, prelogin: true });
      return true;
    },

    /** SPEC §4: the continue submit clears the saved marker. */
    clearCompleteSetup() {
      safe(() => deps.local()?.removeItem(COMPLETE_SETUP_KEY));
    },
  };
}

export type WizardStore = ReturnType<typeof createWizardStore>;

export const wizard = createWizardStore();

export function useWizard(): WizardState {
  return useSyncExternalStore(wizard.subscribe, wizard.get, wizard.get);
}
