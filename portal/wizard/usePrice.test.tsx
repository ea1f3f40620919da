// @vitest-environment happy-dom
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PricingAnswer } from '../../dataProvider/catalogue';
import { defaultOrder, orderOnPlan } from './options';
import { useWizard, wizard } from './store';
import { testOptions, testPlans } from './testCatalogue';
import { PRICE_CONFIRM_DEBOUNCE_MS, usePrice } from './usePrice';

const options = testOptions();
const basic = testPlans.find((p) => p._id === 'basic') as (typeof testPlans)[number];
const answer = (amount: string) => ({ total: { amount, currency: 'USD' }, subtotal: amount, tax: '0.00', discount: '0.00', credit: '0.00', balance: amount, cycle: 'month', monthly: amount, isDiscountApplied: false, discountCode: null, lines: [], taxBasis: { country: null, rate: 0, kind: 'noCountry' } }) as PricingAnswer;

function render(pricingCall: (r: unknown) => Promise<PricingAnswer>) {
  return renderHook(() => {
    const state = useWizard();
    return { quote: usePrice(options, state, pricingCall), state };
  });
}

beforeEach(() => {
  vi.useFakeTimers();
  wizard.close();
  wizard.begin({ name: 'S', order: defaultOrder(options) });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('price recalculation', () => {
  it('shows the engine price at once and has the server confirm it after a pause', async () => {
    const call = vi.fn(async () => answer('49.00'));
    const { result } = render(call);
    expect(result.current.quote?.total).toBe(4900);
    expect(result.current.state.pricing).toMatchObject({ total: '49.00', check: 'pending' });
    expect(call).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(PRICE_CONFIRM_DEBOUNCE_MS));
    expect(call).toHaveBeenCalledTimes(1);
    expect(result.current.state.pricing?.check).toBe('confirmed');
  });

  it('recalculates on a plan change and a period switch, asking the server once per pause', async () => {
    const call = vi.fn(async (r: unknown) => answer((r as { payment: { term: { cycle: string } } }).payment.term.cycle === 'year' ? '1176.00' : '99.00'));
    const { result } = render(call);
    act(() => wizard.setOrder(orderOnPlan(options, basic, null)));
    expect(result.current.quote?.total).toBe(9900);
    act(() => wizard.setPeriod('year'));
    expect(result.current.state.pricing?.total).toBe(result.current.quote ? (result.current.quote.total / 100).toFixed(2) : null);
    await act(() => vi.advanceTimersByTimeAsync(PRICE_CONFIRM_DEBOUNCE_MS));
    expect(call).toHaveBeenCalledTimes(1);
    expect(call.mock.calls[0]?.[0]).toMatchObject({ plan: 'basic', payment: { term: { cycle: 'year' } } });
  });

  it('marks the price failed when the server disagrees or cannot answer', async () => {
    const { result, unmount } = render(async () => answer('50.00'));
    await act(() => vi.advanceTimersByTimeAsync(PRICE_CONFIRM_DEBOUNCE_MS));
    expect(result.current.state.pricing?.check).toBe('failed');
    unmount();
    const failing = render(() => Promise.reject(new Error('offline')));
    act(() => wizard.setPeriod('month'));
    await act(() => vi.advanceTimersByTimeAsync(PRICE_CONFIRM_DEBOUNCE_MS));
    expect(failing.result.current.state.pricing?.check).toBe('failed');
  });
});
