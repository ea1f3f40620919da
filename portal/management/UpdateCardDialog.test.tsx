// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CardSummary } from '../../src/domain/payments/schemas';
import { session } from '../../src/session';
import { errorReply, mockApi, okReply, type ApiHandler } from '../../src/testing/fetchMock';
import { en, renderPage, testUser } from '../../src/testing/renderPage';

type Callback = (event: { name: string }) => void;
const paddle = vi.hoisted(() => ({ init: vi.fn(), open: vi.fn(), close: vi.fn(), callback: null as null | Callback }));
vi.mock('@paddle/paddle-js', () => ({
  initializePaddle: async (options: { eventCallback: Callback }) => {
    paddle.init(options);
    paddle.callback = options.eventCallback;
    return { Checkout: { open: paddle.open, close: paddle.close } };
  },
}));

const { UpdateCardDialog } = await import('./UpdateCardDialog');

const user = { ...testUser, emailVerified: true, onboarding: null, companies: [{ _id: 'c-acme', name: 'Acme' }] };
const oldCard: CardSummary = { brand: 'visa', last4: '4242', expiryMonth: 3, expiryYear: 2039, setAt: '2026-11-01T12:00:00.000Z' };
const newCard: CardSummary = { brand: 'mastercard', last4: '4444', expiryMonth: 11, expiryYear: 2040, setAt: '2026-11-26T12:00:00.000Z' };
const billingWith = (card: CardSummary) => ({ subscriptions: [], transactions: [], card, pastDue: { count: 0, since: null, pauseAfter: null } });

function serve(handler: ApiHandler) {
  return mockApi(async (call) => {
    const answer = await handler(call);
    if (answer) return answer;
    if (call.path === '/api/v1/auth/me') return okReply(user);
    throw new Error(`unexpected ${call.method} ${call.path}`);
  });
}

beforeEach(async () => {
  serve(() => undefined as never);
  await session.refresh();
});

afterEach(() => {
  cleanup();
  session.end();
  vi.clearAllMocks();
});

const open = (onUpdated = vi.fn()) => {
  renderPage(<UpdateCardDialog companyId="c-acme" onClose={vi.fn()} onUpdated={onUpdated} />, '/management/billing');
  return onUpdated;
};

describe('Update card', () => {
  it('with Paddle, opens Paddle’s checkout on the card-update transaction instead of the card form, and is done once the new card is on file', async () => {
    let card = oldCard;
    const api = serve((call) => {
      if (call.path === '/api/v1/payments/config') return okReply({ mode: 'paddle', environment: 'sandbox', clientToken: 'test_token' });
      if (call.path === '/api/v1/companies/c-acme/billing/card/checkout') return okReply({ transactionId: 'txn_update_card', deploymentId: '11111111-1111-4111-8111-111111111111', email: 'ada@example.com' });
      if (call.path === '/api/v1/companies/c-acme/billing') return okReply(billingWith(card));
      return undefined as never;
    });
    const onUpdated = open();
    await waitFor(() => expect(paddle.open).toHaveBeenCalledTimes(1));
    expect(paddle.init).toHaveBeenCalledWith(expect.objectContaining({ token: 'test_token', environment: 'sandbox' }));
    expect(paddle.open).toHaveBeenCalledWith(expect.objectContaining({ transactionId: 'txn_update_card', customer: { email: 'ada@example.com' }, settings: expect.objectContaining({ displayMode: 'inline' }) }));
    expect(api.callsTo('POST', '/api/v1/companies/c-acme/billing/card/checkout')).toHaveLength(1);
    const dialog = screen.getByRole('dialog', { name: en('management.billing.updateCardTitle') });
    expect(within(dialog).queryByRole('form', { name: en('wizard.payment.cardForm') })).toBeNull();
    expect(within(dialog).getByTestId('card-checkout-frame')).toBeTruthy();

    // Paddle says the checkout is done; the card on file changes when its notification arrives.
    card = newCard;
    paddle.callback?.({ name: 'checkout.completed' });
    await waitFor(() => expect(onUpdated).toHaveBeenCalledTimes(1));
    expect(api.callsTo('POST', '/api/v1/companies/c-acme/billing/card')).toHaveLength(0);
  });

  it('says why when there is no card to update with Paddle yet, and opens no checkout', async () => {
    serve((call) => {
      if (call.path === '/api/v1/payments/config') return okReply({ mode: 'paddle', environment: 'sandbox', clientToken: 'test_token' });
      if (call.path === '/api/v1/companies/c-acme/billing/card/checkout') return errorReply(409, 'NO_BILLED_SUBSCRIPTION', en('errors.NO_BILLED_SUBSCRIPTION'));
      if (call.path === '/api/v1/companies/c-acme/billing') return okReply(billingWith(oldCard));
      return undefined as never;
    });
    open();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(en('errors.NO_BILLED_SUBSCRIPTION'));
    expect(paddle.open).not.toHaveBeenCalled();
  });

  it('with the stand-in, shows the card form, saves the card through the API and never loads Paddle', async () => {
    const api = serve((call) => {
      if (call.path === '/api/v1/payments/config') return okReply({ mode: 'stand-in', environment: null, clientToken: null });
      if (call.path === '/api/v1/companies/c-acme/billing/card') return okReply({ card: newCard });
      return undefined as never;
    });
    const onUpdated = open();
    const form = await screen.findByRole('form', { name: en('wizard.payment.cardForm') });
    fireEvent.change(within(form).getByLabelText(en('wizard.payment.cardNumber'), { exact: false }), { target: { value: '5555555555554444' } });
    fireEvent.change(within(form).getByLabelText(en('wizard.payment.expiry'), { exact: false }), { target: { value: '11/40' } });
    fireEvent.change(within(form).getByLabelText(en('wizard.payment.cvc'), { exact: false }), { target: { value: '123' } });
    fireEvent.click(within(form).getByRole('button', { name: en('management.billing.saveCard') }));
    await waitFor(() => expect(onUpdated).toHaveBeenCalledTimes(1));
    expect(api.callsTo('POST', '/api/v1/companies/c-acme/billing/card')).toHaveLength(1);
    expect(api.callsTo('POST', '/api/v1/companies/c-acme/billing/card/checkout')).toHaveLength(0);
    expect(paddle.init).not.toHaveBeenCalled();
  });
});
