// @vitest-environment happy-dom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PaymentsClientConfig } from '../../src/domain/payments/schemas';
import { mockApi, okReply } from '../../src/testing/fetchMock';
import { en, renderPage } from '../../src/testing/renderPage';
import { UpdateCardDialog } from '../management/UpdateCardDialog';
import { PaymentStep } from './PaymentStep';

const summary = {
  mode: 'stand-in',
  deploymentId: 'd1',
  name: 'Blog analytics',
  paymentRequired: true,
  purpose: 'order',
  transactionId: null,
  status: 'pending',
  cycle: 'year',
  items: [{ kind: 'base', refId: null, name: 'Starter', amount: '490.00' }],
  subtotal: '490.00',
  discount: '0.00',
  tax: '3.92',
  total: { amount: '493.92', currency: 'USD' },
  taxBasis: { country: 'CH', rate: 0.8, kind: 'standard' },
  customer: { email: 'ada@example.com' },
  cardOnFile: null,
};

function serve(mode: PaymentsClientConfig['mode']) {
  return mockApi((call) => {
    if (call.path === '/api/v1/payments/config') return okReply({ mode, environment: null, clientToken: null });
    if (call.path === '/api/v1/payments/checkout/d1') return okReply(summary);
    throw new Error(`unexpected ${call.method} ${call.path}`);
  });
}

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

const cardForm = () => screen.queryByRole('form', { name: en('wizard.payment.cardForm') });

describe('the payment step when payments are off', () => {
  it('says plainly that paid plans cannot be ordered now, and offers no card form', async () => {
    const api = serve('off');
    renderPage(<PaymentStep deploymentId="d1" onPaid={vi.fn()} />, '/get-started/payment-details');
    expect((await screen.findByRole('alert')).textContent).toBe(en('wizard.payment.paymentsOff'));
    expect(en('wizard.payment.paymentsOff')).toMatch(/^Paid plans cannot be ordered/);
    // The summary still shows what the order would cost.
    expect(screen.getByText('Blog analytics')).toBeTruthy();
    expect(cardForm()).toBeNull();
    expect(api.callsTo('GET', '/api/v1/payments/config')).toHaveLength(1);
  });

  it('with the stand-in, shows its card form and no such notice', async () => {
    serve('stand-in');
    renderPage(<PaymentStep deploymentId="d1" onPaid={vi.fn()} />, '/get-started/payment-details');
    await waitFor(() => expect(cardForm()).not.toBeNull());
    expect(screen.queryByText(en('wizard.payment.paymentsOff'))).toBeNull();
  });

  it('"Update card" says cards cannot be saved now, with no card form', async () => {
    serve('off');
    renderPage(<UpdateCardDialog companyId="c-acme" onClose={vi.fn()} onUpdated={vi.fn()} />, '/management/billing');
    expect((await screen.findByRole('alert')).textContent).toBe(en('management.billing.cardPaymentsOff'));
    expect(cardForm()).toBeNull();
  });
});
