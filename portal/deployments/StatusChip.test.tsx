// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DEPLOYMENT_STATUSES, SUBSCRIPTION_STATUSES } from '../../src/domain/orders/schemas';
import '../../src/serversI18n';
import { isAwaitingPayment, statusLabelKey } from '../../src/ui/servers/status';
import { en, renderUi } from '../../src/ui/testUtils';
import { StatusChip } from './StatusChip';

afterEach(cleanup);

describe('a server’s status as its customer reads it', () => {
  it('an order waiting for its payment says so, not "Provisioned"', () => {
    renderUi(<StatusChip status="provisioned" subscriptionStatus="pending" />);
    expect(screen.getByTestId('deployment-status').textContent).toBe('Waiting for payment');
    expect(screen.queryByText(/Provisioned/)).toBeNull();
  });

  it('paid, before the worker starts on it, it is being set up soon; the timeline’s bare status reads as waiting', () => {
    expect(en(statusLabelKey('provisioned', 'active'))).toBe('Paid · setting up soon');
    // An unpaid order being removed (its subscription canceled) was never paid either.
    expect(en(statusLabelKey('provisioned', 'canceled'))).toBe('Waiting for payment');
    expect(en(statusLabelKey('provisioned'))).toBe('Waiting for payment');
    expect(en(statusLabelKey('provisioned', null))).toBe('Waiting for payment');
    // The list then shows no second "Payment pending" chip beside it.
    expect(isAwaitingPayment('provisioned', 'pending')).toBe(true);
    expect(isAwaitingPayment('provisioned', 'active')).toBe(false);
    expect(isAwaitingPayment('running', 'pending')).toBe(false);
  });

  it('every other status keeps its own label, whatever the subscription', () => {
    for (const status of DEPLOYMENT_STATUSES.filter((s) => s !== 'provisioned')) {
      for (const sub of SUBSCRIPTION_STATUSES) expect(statusLabelKey(status, sub)).toBe(`servers.status.${status}`);
    }
    renderUi(<StatusChip status="running" subscriptionStatus="active" />);
    expect(screen.getByTestId('deployment-status').textContent).toBe('Running');
  });
});
