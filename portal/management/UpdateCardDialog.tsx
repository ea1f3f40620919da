import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ordersApi } from '../../dataProvider/orders';
import type { CardSummary, PaymentsClientConfig } from '../../src/domain/payments/schemas';
import { failureMessage } from '../../src/ui/form/messages';
import { CardForm } from '../wizard/CardForm';
import { CHECKOUT_FRAME_HEIGHT, openCheckout } from '../wizard/checkout';

/** How long the dialog waits for Paddle's notification to put the new card on file. */
const CARD_POLLS = 30;
const CARD_POLL_MS = 1000;

const sameCard = (a: CardSummary | null, b: CardSummary | null) => (a?.setAt ?? null) === (b?.setAt ?? null) && a?.last4 === b?.last4;

/** Waits until the card on file is another than `before` (Paddle's webhook has arrived). */
async function waitForNewCard(companyId: string, before: CardSummary | null, live: () => boolean): Promise<boolean> {
  for (let i = 0; i < CARD_POLLS && live(); i++) {
    const billing = await ordersApi.billing(companyId).catch(() => null);
    if (billing && !sameCard(billing.card, before)) return true;
    await new Promise((r) => setTimeout(r, CARD_POLL_MS));
  }
  return false;
}

/**
 * "Update card" (Management › Billing), at any time: the new card goes on file. With Paddle, its
 * own checkout takes the card (the subscription's update-payment-method transaction); otherwise
 * the stand-in's card form.
 */
export function UpdateCardDialog({ companyId, onClose, onUpdated }: { companyId: string; onClose: () => void; onUpdated: () => void }) {
  const { t } = useTranslation();
  const [config, setConfig] = useState<PaymentsClientConfig | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    ordersApi.paymentsConfig().then(
      (c) => live && setConfig(c),
      (e: unknown) => live && setFailure(failureMessage(e, t)),
    );
    return () => {
      live = false;
    };
  }, [t]);

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="update-card-title">
      <DialogTitle id="update-card-title">{t('management.billing.updateCardTitle')}</DialogTitle>
      <DialogContent>
        {failure && (
          <Alert severity="error" role="alert">
            {failure}
          </Alert>
        )}
        {!config && !failure && <CircularProgress size={24} aria-label={t('management.billing.cardCheckoutLoading')} />}
        {config?.mode === 'paddle' && <PaddleCardUpdate companyId={companyId} config={config} onUpdated={onUpdated} />}
        {config?.mode === 'off' && (
          <Alert severity="warning" role="alert">
            {t('management.billing.cardPaymentsOff')}
          </Alert>
        )}
        {config?.mode === 'stand-in' && <CardForm submit={(card) => ordersApi.updateCard(companyId, card)} submitLabel={t('management.billing.saveCard')} onCompleted={onUpdated} />}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('wizard.paymentModal.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

/** Paddle's inline checkout on the card-update transaction the API asks Paddle for. */
function PaddleCardUpdate({ companyId, config, onUpdated }: { companyId: string; config: PaymentsClientConfig; onUpdated: () => void }) {
  const { t } = useTranslation();
  const frame = useRef<HTMLDivElement>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [state, setState] = useState<'checkout' | 'confirming' | 'unconfirmed'>('checkout');

  useEffect(() => {
    let live = true;
    let close: (() => void) | null = null;
    void (async () => {
      try {
        const [checkout, billing] = await Promise.all([ordersApi.cardCheckout(companyId), ordersApi.billing(companyId)]);
        const container = frame.current;
        if (!live || !container) return;
        const handle = await openCheckout(
          {
            deploymentId: checkout.deploymentId,
            container,
            transactionId: checkout.transactionId,
            purpose: 'pastDue',
            email: checkout.email,
            onCompleted: () => {
              setState('confirming');
              void waitForNewCard(companyId, billing.card, () => live).then((changed) => live && (changed ? onUpdated() : setState('unconfirmed')));
            },
          },
          async () => config,
        );
        if (live) close = () => handle.close();
        else handle.close();
      } catch (e: unknown) {
        if (live) setFailure(failureMessage(e, t));
      }
    })();
    return () => {
      live = false;
      close?.();
    };
    // The checkout opens once per dialog; onUpdated is read when Paddle says it is done.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [companyId, config]);

  return (
    <>
      {failure && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {failure}
        </Alert>
      )}
      {state === 'confirming' && (
        <Alert severity="info" role="status" sx={{ mb: 2 }}>
          {t('management.billing.cardConfirming')}
        </Alert>
      )}
      {state === 'unconfirmed' && (
        <Alert severity="info" role="status" sx={{ mb: 2 }}>
          {t('management.billing.cardNotConfirmed')}
        </Alert>
      )}
      {!failure && <Box ref={frame} data-testid="card-checkout-frame" sx={{ minHeight: CHECKOUT_FRAME_HEIGHT, display: state === 'checkout' ? 'block' : 'none' }} />}
    </>
  );
}
