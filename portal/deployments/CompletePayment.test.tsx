// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderUi } from '../../src/ui/testUtils';
import { CompletePayment } from './CompletePayment';

// The modal's own steps (card form, payment, "Payment received") are the browser test's; here it
// only has to be there or not.
vi.mock('../wizard/PaymentModal', () => ({
  PaymentModal: ({ deployment }: { deployment: { name: string } }) => <div role="dialog">Paying for {deployment.name}</div>,
}));

afterEach(cleanup);

const server = (status: 'pending' | 'active') => ({ _id: 'd1', name: 'Pending Server', billing: { status } }) as Parameters<typeof CompletePayment>[0]['deployment'];

describe('Complete payment', () => {
  it('offers nothing for a server that is not awaiting its first payment', () => {
    renderUi(<CompletePayment deployment={server('active')} />);
    expect(screen.queryByTestId('complete-payment')).toBeNull();
  });

  it('keeps its open modal when the refresh after the payment shows the server paid', () => {
    let refresh = (): void => undefined;
    function Page() {
      const [status, setStatus] = useState<'pending' | 'active'>('pending');
      refresh = () => setStatus('active');
      return <CompletePayment deployment={server(status)} />;
    }
    renderUi(<Page />);
    fireEvent.click(screen.getByTestId('complete-payment'));
    expect(screen.getByRole('dialog').textContent).toBe('Paying for Pending Server');
    act(() => refresh());
    // The button goes, the modal (showing "Payment received" by then) stays until it is closed.
    expect(screen.queryByTestId('complete-payment')).toBeNull();
    expect(screen.getByRole('dialog').textContent).toBe('Paying for Pending Server');
  });
});
