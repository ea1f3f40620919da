import type { CardSummary, PaymentsClientConfig } from '../../src/domain/payments/schemas';

/**
 * The one checkout interface of the payment step (SPEC §4 Checkout). Paddle's inline frame runs
 * when the API says Paddle is configured; otherwise the local stand-in's card form, served by our
 * API. The screens call openCheckout and never learn which one ran.
 */
export interface CheckoutInput {
  deploymentId: string;
  /** Where the checkout draws itself. */
  container: HTMLElement;
  /** Paddle mode: the transaction to pay (the order's, or the card update of a past-due subscription). */
  transactionId: string | null;
  /** What is paid: a new order, or a past-due renewal with a new card (the stand-in's button says which). */
  purpose: 'order' | 'pastDue';
  email: string;
  /** The stand-in: the company's card on file, offered beside a new card (Paddle's checkout offers its own). */
  cardOnFile?: CardSummary | null;
  onCompleted: () => void;
  onDiscountApplied?: (discount: { code: string; total: string | null }) => void;
  onDiscountRemoved?: () => void;
}

export interface CheckoutHandle {
  close(): void;
}

export interface CheckoutAdapter {
  open(input: CheckoutInput, config: PaymentsClientConfig): Promise<CheckoutHandle>;
}

/** SPEC §9: the checkout frame's initial height. */
export const CHECKOUT_FRAME_HEIGHT = 450;
const FRAME_CLASS = 'beacon-checkout-frame';

/** Paddle Billing's inline checkout (paddle-js, loaded only when it is needed). */
export const paddleAdapter: CheckoutAdapter = {
  async open(input, config) {
    const { initializePaddle } = await import('@paddle/paddle-js');
    if (!config.clientToken) throw new Error('Paddle client token missing');
    const paddle = await initializePaddle({
      token: config.clientToken,
      environment: config.environment === 'production' ? 'production' : 'sandbox',
      eventCallback(event) {
        if (event.name === 'checkout.completed') input.onCompleted();
        else if (event.name === 'checkout.discount.applied' && event.data?.discount) input.onDiscountApplied?.({ code: event.data.discount.code, total: event.data.totals ? String(event.data.totals.total) : null });
        else if (event.name === 'checkout.discount.removed') input.onDiscountRemoved?.();
      },
    });
    if (!paddle) throw new Error('Paddle did not load');
    if (!input.transactionId) throw new Error('no Paddle transaction for this checkout');
    input.container.classList.add(FRAME_CLASS);
    paddle.Checkout.open({
      settings: { displayMode: 'inline', frameTarget: FRAME_CLASS, frameInitialHeight: CHECKOUT_FRAME_HEIGHT, frameStyle: 'width: 100%; min-width: 286px; background-color: transparent; border: none;' },
      // The transaction carries the items the server priced.
      transactionId: input.transactionId,
      customer: { email: input.email },
      customData: { deploymentId: input.deploymentId },
    });
    return { close: () => paddle.Checkout.close() };
  },
};

/** The local stand-in: our API's card form, mounted into the same container. */
export const standInAdapter: CheckoutAdapter = {
  async open(input) {
    const [{ createRoot }, { StandInCheckout }, { createElement }] = await Promise.all([import('react-dom/client'), import('./StandInCheckout'), import('react')]);
    const root = createRoot(input.container);
    root.render(createElement(StandInCheckout, { deploymentId: input.deploymentId, purpose: input.purpose, cardOnFile: input.cardOnFile ?? null, onCompleted: input.onCompleted }));
    return { close: () => setTimeout(() => root.unmount(), 0) };
  },
};

export async function openCheckout(input: CheckoutInput, loadConfig: () => Promise<PaymentsClientConfig>): Promise<CheckoutHandle> {
  const config = await loadConfig();
  // Payments off: the screens say so instead of opening a checkout whose payment would be refused.
  if (config.mode === 'off') throw new Error('no payment provider: there is no checkout to open');
  return (config.mode === 'paddle' ? paddleAdapter : standInAdapter).open(input, config);
}
