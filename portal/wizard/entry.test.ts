import { describe, expect, it } from 'vitest';
import { landingStep, orderFits, orderToBegin, preloginLandingStep } from './entry';
import { defaultOrder, orderOnPlan, wizardOptions } from './options';
import { APP_STEPS, PRELOGIN_STEPS } from './steps';
import { emptyState, type WizardState } from './store';
import { testConf, testOptions, testPlans } from './testCatalogue';

const options = testOptions();
const order = defaultOrder(options);
if (!order) throw new Error('the test catalogue has a default order');
/** What a new tab or a restarted browser has: nothing. */
const cold = emptyState('');
const inProgress = (patch: Partial<WizardState> = {}): WizardState => ({ ...emptyState('My Beacon Server'), inProgress: true, subscription: { ...order, _id: null }, ...patch });

describe('a wizard address opened cold', () => {
  it('payment and success without their server land on the first step; the configure steps stay', () => {
    for (const step of APP_STEPS) {
      const expected = step === 'paymentDetails' || step === 'serverCreated' ? 'choosePlan' : step;
      expect(landingStep(step, cold, undefined)).toBe(expected);
    }
    expect(landingStep('paymentDetails', inProgress({ serverId: 'srv-1' }), undefined)).toBe('paymentDetails');
    expect(landingStep('serverCreated', inProgress({ serverId: 'srv-1' }), undefined)).toBe('serverCreated');
  });

  it('in edit mode payment is for the edited server (loaded by the page); success needs that server', () => {
    expect(landingStep('paymentDetails', cold, 'srv-1')).toBe('paymentDetails');
    expect(landingStep('serverCreated', cold, 'srv-1')).toBe('choosePlan');
    expect(landingStep('serverCreated', inProgress({ serverId: 'srv-2' }), 'srv-1')).toBe('choosePlan');
    expect(landingStep('serverCreated', inProgress({ serverId: 'srv-1' }), 'srv-1')).toBe('serverCreated');
  });

  it('pre-login complete-setup with no order chosen sends the visitor to choose the plan first', () => {
    expect(preloginLandingStep('preloginRegister', false)).toBe('preloginChoosePlan');
    expect(preloginLandingStep('preloginRegister', true)).toBe('preloginRegister');
    for (const step of PRELOGIN_STEPS.filter((s) => s !== 'preloginRegister')) expect(preloginLandingStep(step, false)).toBe(step);
  });

  it('with no order in storage a new one is started, on the first look and after a redirect alike', () => {
    expect(orderToBegin(cold, options, true)).toEqual({ force: false });
    expect(orderToBegin(cold, options, false)).toEqual({ force: false });
    // A closed wizard is started again on entry, but not while the page is still showing it.
    const closed = inProgress({ inProgress: false });
    expect(orderToBegin(closed, options, true)).toEqual({ force: false });
    expect(orderToBegin(closed, options, false)).toBeNull();
  });

  it('an order in progress is kept while the user moves between steps, even after its server exists', () => {
    expect(orderToBegin(inProgress(), options, true)).toBeNull();
    expect(orderToBegin(inProgress(), options, false)).toBeNull();
    // Back to the configuration from payment: the same order, not a new one.
    expect(orderToBegin(inProgress({ serverId: 'srv-1' }), options, false)).toBeNull();
    // Opening the wizard again once the server was made starts over.
    expect(orderToBegin(inProgress({ serverId: 'srv-1' }), options, true)).toEqual({ force: true });
  });

  it('an order this catalogue cannot price is replaced on entry, so the step has a total', () => {
    const withoutStarter = wizardOptions(
      testPlans.filter((p) => p._id !== order.planId),
      testConf,
    );
    const stale = inProgress();
    expect(orderFits(options, stale)).toBe(true);
    expect(orderFits(withoutStarter, stale)).toBe(false);
    expect(orderToBegin(stale, withoutStarter, true)).toEqual({ force: true });
    // And what begin then starts fits.
    const fresh = defaultOrder(withoutStarter);
    expect(fresh && orderFits(withoutStarter, inProgress({ subscription: { ...fresh, _id: null } }))).toBe(true);
  });

  it('an order with an option its plan lacks does not fit; the same order through orderOnPlan does', () => {
    const free = testPlans.find((p) => p.kind === 'free');
    if (!free) throw new Error('the test catalogue has a free plan');
    const onFree = orderOnPlan(options, free, null);
    const withEurope = { ...onFree, planConfig: { ...onFree.planConfig, region: 'eu' } };
    expect(orderFits(options, inProgress({ subscription: { ...withEurope, _id: null } }))).toBe(false);
    expect(orderFits(options, inProgress({ subscription: { ...orderOnPlan(options, free, withEurope), _id: null } }))).toBe(true);
  });
});
