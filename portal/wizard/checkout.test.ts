// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PaymentsClientConfig } from '../../src/domain/payments/schemas';

type Callback = (event: { name: string; data?: { discount?: { code: string }; totals?: { total: number } } }) => void;
const paddle = vi.hoisted(() => ({ init: vi.fn(), open: vi.fn(), close: vi.fn(), callback: null as null | Callback }));
vi.mock('@paddle/paddle-js', () => ({
  initializePaddle: async (options: { eventCallback: Callback }) => {
    paddle.init(options);
    paddle.callback = options.eventCallback;
    return { Checkout: { open: paddle.open, close: paddle.close } };
  },
}));

const { CHECKOUT_FRAME_HEIGHT, openCheckout } = await import('./checkout');

const transactionId = 'txn_1';
const paddleConfig: PaymentsClientConfig = { mode: 'paddle', environment: 'sandbox', clientToken: 'test_token' };

afterEach(() => vi.clearAllMocks());

describe('one checkout interface', () => {
  it('opens Paddle inline (frame 450 high) with the transaction, the customer email and the deployment id', async () => {
    const handlers = { onCompleted: vi.fn(), onDiscountApplied: vi.fn(), onDiscountRemoved: vi.fn() };
    const container = document.createElement('div');
    const handle = await openCheckout({ deploymentId: 'd1', container, transactionId, purpose: 'order', email: 'a@example.com', ...handlers }, async () => paddleConfig);
    expect(CHECKOUT_FRAME_HEIGHT).toBe(450);
    expect(paddle.init).toHaveBeenCalledWith(expect.objectContaining({ token: 'test_token', environment: 'sandbox' }));
    expect(paddle.open).toHaveBeenCalledWith(
      expect.objectContaining({
        settings: expect.objectContaining({ displayMode: 'inline', frameInitialHeight: 450 }),
        transactionId: 'txn_1',
        customer: { email: 'a@example.com' },
        customData: expect.objectContaining({ deploymentId: 'd1' }),
      }),
    );
    paddle.callback?.({ name: 'checkout.discount.applied', data: { discount: { code: 'SPRING' }, totals: { total: 40 } } });
    expect(handlers.onDiscountApplied).toHaveBeenCalledWith({ code: 'SPRING', total: '40' });
    paddle.callback?.({ name: 'checkout.discount.removed' });
    expect(handlers.onDiscountRemoved).toHaveBeenCalled();
    expect(handlers.onCompleted).not.toHaveBeenCalled();
    paddle.callback?.({ name: 'checkout.completed' });
    expect(handlers.onCompleted).toHaveBeenCalledTimes(1);
    handle.close();
    expect(paddle.close).toHaveBeenCalled();
  });

  it('uses production when the configuration says so', async () => {
    await openCheckout({ deploymentId: 'd1', container: document.createElement('div'), transactionId, purpose: 'order', email: 'a@example.com', onCompleted: vi.fn() }, async () => ({ ...paddleConfig, environment: 'production' }));
    expect(paddle.init).toHaveBeenCalledWith(expect.objectContaining({ environment: 'production' }));
  });

  it('without Paddle, mounts the stand-in card form into the same container and never loads Paddle', async () => {
    const container = document.createElement('div');
    document.body.append(container);
    const handle = await openCheckout({ deploymentId: 'd1', container, transactionId: null, purpose: 'order', email: 'a@example.com', onCompleted: vi.fn() }, async () => ({ mode: 'stand-in', environment: null, clientToken: null }));
    await vi.waitFor(() => expect(container.querySelector('form[aria-label="Card payment"]')).not.toBeNull());
    expect(paddle.init).not.toHaveBeenCalled();
    handle.close();
  });
});
