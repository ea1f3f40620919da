// @vitest-environment happy-dom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/domain/apiError';
import { errorReply, mockApi, okReply } from '../../src/testing/fetchMock';
import { en, renderPage } from '../../src/testing/renderPage';
import { renderUi } from '../../src/ui/testUtils';
import { landingStep } from './entry';
import { PaymentStep } from './PaymentStep';
import { PaymentUnavailable, paymentUnavailableText } from './PaymentUnavailable';
import { PRELOGIN_PROGRESS_STEPS, PRELOGIN_STEPS, PROGRESS_STEPS, type WizardStep } from './steps';
import { createWizardStore, emptyState } from './store';
import { WizardFrame } from './WizardFrame';

const ID = '5b0c7f52-7a43-4a43-9d3e-0d1e2f3a4b5c';
const summary = {
  mode: 'stand-in',
  deploymentId: ID,
  name: 'Tab Server',
  paymentRequired: false,
  purpose: null,
  transactionId: null,
  status: 'active',
  cycle: 'month',
  items: [{ kind: 'base', refId: null, name: 'Starter', amount: '49.00' }],
  subtotal: '49.00',
  discount: '0.00',
  tax: '0.00',
  total: { amount: '49.00', currency: 'USD' },
  customer: { email: 'ada@example.com' },
  cardOnFile: null,
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const t = (key: string, options?: Record<string, unknown>) => en(key, options);
const refused = (code: 'DEPLOYMENT_NOT_FOUND' | 'NOT_A_MEMBER' | 'ROLE_REQUIRED' | 'VALIDATION_FAILED' | 'RATE_LIMITED', status: number) => new ApiError(en(`errors.${code}`), status, code, null, null);

describe('a payment address names its server', () => {
  it('opened cold with the server in the address it stays on payment; without one, the first step', () => {
    const cold = emptyState('');
    expect(landingStep('paymentDetails', cold, undefined, ID)).toBe('paymentDetails');
    expect(landingStep('paymentDetails', cold, undefined, null)).toBe('choosePlan');
    expect(landingStep('paymentDetails', cold, undefined)).toBe('choosePlan');
    // The address does not make a success page of a server this tab never paid for.
    expect(landingStep('serverCreated', cold, undefined, ID)).toBe('choosePlan');
  });

  it('says plainly why an address opens no checkout', () => {
    expect(paymentUnavailableText({ kind: 'notDue', name: 'Tab Server', status: 'active', free: false }, t)).toBe('Tab Server is paid already: there is nothing left to pay for this server.');
    expect(paymentUnavailableText({ kind: 'notDue', name: 'Tab Server', status: 'active', free: true }, t)).toBe('Tab Server is on a free plan: there is nothing to pay.');
    expect(paymentUnavailableText({ kind: 'notDue', name: 'Tab Server', status: 'canceled', free: false }, t)).toBe('No payment is due for Tab Server.');
    expect(paymentUnavailableText({ kind: 'refused', error: refused('DEPLOYMENT_NOT_FOUND', 404) }, t)).toBe(en('wizard.payment.unavailable.notFound'));
    expect(paymentUnavailableText({ kind: 'refused', error: refused('VALIDATION_FAILED', 400) }, t)).toBe(en('wizard.payment.unavailable.notFound'));
    expect(paymentUnavailableText({ kind: 'refused', error: refused('NOT_A_MEMBER', 403) }, t)).toBe('This server belongs to a company you are not a member of, so you cannot pay for it.');
    expect(paymentUnavailableText({ kind: 'refused', error: refused('ROLE_REQUIRED', 403) }, t)).toMatch(/^Only an admin of the server’s company can pay for it/);
    expect(paymentUnavailableText({ kind: 'refused', error: refused('RATE_LIMITED', 429) }, t)).toBe(`The payment could not be opened: ${en('errors.RATE_LIMITED')}`);
    expect(paymentUnavailableText({ kind: 'refused', error: new Error('offline') }, t)).toBe(`The payment could not be opened: ${en('errors.somethingWentWrong')}`);
  });

  it('shows the reason with the way on to the servers list', () => {
    renderUi(
      <MemoryRouter>
        <PaymentUnavailable reason={{ kind: 'refused', error: refused('DEPLOYMENT_NOT_FOUND', 404) }} deploymentsPath="/c/c1/p/p1/deployments" />
      </MemoryRouter>,
    );
    const alert = screen.getByRole('alert');
    expect(within(alert).getByText('This payment cannot be opened')).toBeTruthy();
    expect(alert.textContent).toContain(en('wizard.payment.unavailable.notFound'));
    expect(screen.getByRole('link', { name: 'Go to your servers' }).getAttribute('href')).toBe('/c/c1/p/p1/deployments');
  });

  it('the payment step hands a refused checkout to onUnavailable instead of a bare message', async () => {
    mockApi((call) => {
      if (call.path === `/api/v1/payments/checkout/${ID}`) return errorReply(404, 'DEPLOYMENT_NOT_FOUND', en('errors.DEPLOYMENT_NOT_FOUND'));
      throw new Error(`unexpected ${call.method} ${call.path}`);
    });
    const onUnavailable = vi.fn();
    renderPage(<PaymentStep deploymentId={ID} onPaid={vi.fn()} onUnavailable={onUnavailable} />, '/server-builder/payment-details');
    await waitFor(() => expect(onUnavailable).toHaveBeenCalledTimes(1));
    expect((onUnavailable.mock.calls[0]?.[0] as ApiError).code).toBe('DEPLOYMENT_NOT_FOUND');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('with nothing due, the payment step gives the summary (its name) to onNotDue', async () => {
    mockApi((call) => {
      if (call.path === `/api/v1/payments/checkout/${ID}`) return okReply(summary);
      throw new Error(`unexpected ${call.method} ${call.path}`);
    });
    const onNotDue = vi.fn();
    const onPaid = vi.fn();
    renderPage(<PaymentStep deploymentId={ID} onPaid={onPaid} onNotDue={onNotDue} />, '/server-builder/payment-details');
    await waitFor(() => expect(onNotDue).toHaveBeenCalledTimes(1));
    expect(onNotDue.mock.calls[0]?.[0]).toMatchObject({ deploymentId: ID, name: 'Tab Server', paymentRequired: false });
    expect(onPaid).not.toHaveBeenCalled();
  });
});

describe('the steps indicator counts the same steps signed in and out', () => {
  const frame = (steps: readonly WizardStep[], current: WizardStep) =>
    renderUi(
      <MemoryRouter>
        <WizardFrame editing={false} footer={null} progress={{ steps, current }}>
          <p>step</p>
        </WizardFrame>
      </MemoryRouter>,
    );
  const items = () => within(screen.getByRole('navigation', { name: 'Steps' })).getAllByRole('listitem').map((i) => i.textContent);

  it('a visitor’s order lists its payment, and its payment after sign-up lists the same steps', () => {
    expect(PRELOGIN_PROGRESS_STEPS).toEqual([...PRELOGIN_STEPS, 'paymentDetails']);
    frame(PRELOGIN_PROGRESS_STEPS, 'preloginRegister');
    expect(items()).toEqual(['1Plan', '2Region', '3Account', '4Payment']);
    expect(screen.getByText('Step 3 of 4: Account')).toBeTruthy();
    cleanup();
    frame(PRELOGIN_PROGRESS_STEPS, 'paymentDetails');
    expect(items()).toEqual(['1Plan', '2Region', '3Account', '4Payment']);
    expect(screen.getByText('Step 4 of 4: Payment')).toBeTruthy();
  });

  it('an order begun signed in counts the signed-in wizard’s steps, payment last', () => {
    frame(PROGRESS_STEPS, 'paymentDetails');
    expect(items()).toEqual(['1Plan', '2Region', '3Core features', '4Add-ons', '5Extras', '6Payment']);
  });

  it('the order kept from the pre-login wizard is marked as such; a new order is not', () => {
    const store = createWizardStore({ session: () => null, local: () => null, newKey: () => 'k', now: () => 0 });
    store.restoreConfiguration({ name: 'From the visitor', cycle: 'month', order: { planId: 'p', planCode: 'v3.mau_1_000_gcp.base', providerId: 'gcp-id', planConfig: { provider: 'gcp', region: 'r', size: null, features: [] }, specialFeatures: { domain: 'd', retention: 'r6', backup: 'b' } } });
    expect(store.get().prelogin).toBe(true);
    store.begin({ name: 'New', order: null }, true);
    expect(store.get().prelogin).toBeUndefined();
  });
});
