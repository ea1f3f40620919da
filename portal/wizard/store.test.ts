import { describe, expect, it } from 'vitest';
import { defaultOrder } from './options';
import { COMPLETE_SETUP_KEY, COMPLETE_SETUP_MAX_AGE_MS, createWizardStore, SUBMISSION_KEY, WIZARD_KEY } from './store';
import { testOptions } from './testCatalogue';

/** An in-memory Storage. */
function memoryStorage(): Storage {
  const data = new Map<string, string>();
  return {
    get length() {
      return data.size;
    },
    clear: () => data.clear(),
    getItem: (k) => data.get(k) ?? null,
    key: (i) => [...data.keys()][i] ?? null,
    removeItem: (k) => void data.delete(k),
    setItem: (k, v) => void data.set(k, String(v)),
  };
}

function setup(shared = { session: memoryStorage(), local: memoryStorage() }) {
  let n = 0;
  let now = 1_000_000;
  const store = createWizardStore({ session: () => shared.session, local: () => shared.local, newKey: () => `key-${(n += 1)}`, now: () => now });
  return { store, shared, tick: (ms: number) => (now += ms) };
}

const order = defaultOrder(testOptions());
if (!order) throw new Error('the test catalogue has a default order');
const defaults = { name: 'My Beacon Server', order };

describe('server-creation store', () => {
  it('a new wizard resets to the defaults, unless one is in progress', () => {
    const { store } = setup();
    expect(store.begin(defaults)).toBe(true);
    expect(store.get()).toMatchObject({ name: 'My Beacon Server', activePaymentPeriod: 'month', inProgress: true, subscription: { ...order, _id: null }, serverId: null });
    store.setPeriod('year');
    store.update({ name: 'Kept' });
    expect(store.begin(defaults)).toBe(false);
    expect(store.get()).toMatchObject({ name: 'Kept', activePaymentPeriod: 'year' });
    store.close();
    expect(store.get().inProgress).toBe(false);
    store.begin(defaults);
    expect(store.get()).toMatchObject({ name: 'My Beacon Server', activePaymentPeriod: 'month' });
  });

  it('survives a reload: the state is read back from sessionStorage', () => {
    const first = setup();
    first.store.begin(defaults);
    first.store.update({ name: 'After reload' });
    const again = setup(first.shared).store;
    expect(again.get()).toMatchObject({ name: 'After reload', inProgress: true, subscription: { planId: order.planId } });
    first.shared.session.setItem(WIZARD_KEY, '{"broken"');
    expect(setup(first.shared).store.get()).toMatchObject({ name: '', inProgress: false });
  });

  it('keeps one idempotency key per submission attempt, shared with another tab, and a new one for another order', () => {
    const { store, shared } = setup();
    store.begin(defaults);
    const body = { name: 'A', plan: 'starter' };
    const key = store.submissionKey(body);
    expect(store.submissionKey(body)).toBe(key);
    // A reload keeps the attempt's key.
    expect(setup(shared).store.submissionKey(body)).toBe(key);
    // Another tab (its own sessionStorage, the same localStorage) sending the same order uses it too.
    const otherTab = setup({ session: memoryStorage(), local: shared.local }).store;
    expect(otherTab.submissionKey(body)).toBe(key);
    expect(store.submissionKey({ ...body, name: 'B' })).not.toBe(key);
    // A new wizard starts a new attempt.
    store.close();
    store.begin(defaults);
    expect(shared.local.getItem(SUBMISSION_KEY)).toBeNull();
  });

  it('stores cly_id and utm tags from the query', () => {
    const { store } = setup();
    store.track('?cly_id=abc&utm_source=news&utm_campaign=spring&other=x');
    expect(store.get().tracking).toEqual({ clyId: 'abc', utm: { utm_source: 'news', utm_campaign: 'spring' } });
    store.begin(defaults);
    expect(store.get().tracking.clyId).toBe('abc');
  });

  it('keeps the pre-login order as a complete-setup marker for another tab, until it is used or too old', () => {
    const { store, shared, tick } = setup();
    store.begin(defaults);
    store.update({ name: 'From pricing' });
    store.saveCompleteSetup();
    const verifyTab = setup({ session: memoryStorage(), local: shared.local }).store;
    expect(verifyTab.restoreCompleteSetup()).toBe(true);
    expect(verifyTab.get()).toMatchObject({ name: 'From pricing', inProgress: true, subscription: { planId: order.planId } });
    verifyTab.clearCompleteSetup();
    expect(shared.local.getItem(COMPLETE_SETUP_KEY)).toBeNull();
    store.saveCompleteSetup();
    tick(COMPLETE_SETUP_MAX_AGE_MS + 1);
    expect(store.peekCompleteSetup()).toBeNull();
  });

  it('gives the order for the account to keep at sign-up, and restores it on another device', () => {
    const { store } = setup();
    expect(store.pendingConfiguration()).toBeNull();
    store.begin(defaults);
    store.setPeriod('year');
    store.update({ name: '  Shop analytics  ' });
    const kept = store.pendingConfiguration();
    expect(kept).toEqual({ name: 'Shop analytics', cycle: 'year', order });
    // Another device: nothing in its storage, the account's copy only.
    const elsewhere = setup().store;
    if (kept) elsewhere.restoreConfiguration(kept);
    expect(elsewhere.get()).toMatchObject({ name: 'Shop analytics', activePaymentPeriod: 'year', inProgress: true, serverId: null, subscription: { ...order, _id: null } });
  });
});
