// @vitest-environment happy-dom
import { cleanup, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { currentLocation, en, renderPage } from '../../src/testing/renderPage';
import { clearToasts, getToasts } from '../../src/ui/toast/toastStore';
import { usePaymentSuccessNotice } from './usePaymentSuccessNotice';

function Probe() {
  usePaymentSuccessNotice();
  return null;
}

afterEach(() => {
  cleanup();
  clearToasts();
});

describe('the dashboard after the payment modal (success=true)', () => {
  it('says the payment was received once and drops the flag from the address, keeping the rest', async () => {
    renderPage(<Probe />, '/c/c1/p/p1/dashboard?success=true&tab=servers', '/c/:cid/p/:pid/dashboard');
    await waitFor(() => expect(currentLocation()).toBe('/c/c1/p/p1/dashboard?tab=servers'));
    expect(getToasts().map((t) => t.text)).toEqual([en('wizard.paymentModal.paidNotice')]);
  });

  it('says nothing without the flag', () => {
    renderPage(<Probe />, '/dashboard?success=false');
    expect(getToasts()).toEqual([]);
    expect(currentLocation()).toBe('/dashboard?success=false');
  });
});
