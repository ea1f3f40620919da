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
import { useCardCheckout, useCardOnFileWatch, usePaymentsConfig, useUpdateCard } from '../../dataProvider/orders/queries';
import type { CardSummary, PaymentsClientConfig } from '../../src/domain/payments/schemas';
import { QueryFailure } from '../../src/ui/QueryFailure';
import { CardForm } from '../wizard/CardForm';
import { CHECKOUT_FRAME_HEIGHT, openCheckout } from '../wizard/checkout';

/** How long the dialog waits for Paddle's notification to put the new card on file. */
const CARD_POLLS = 30;
const CARD_POLL_MS = 1000;

const sameCard = (a: CardSummary | null, b: CardSummary | null) => (a?.setAt ?? null) === (b?.setAt ?? null) && a?.last4 === b?.last4;

/**
 * "Update card" (Management › Billing), at any time: the new card goes on file. With Paddle, its
 * own checkout takes the card (the subscription's update-payment-method transaction); otherwise
 * the stand-in's card form.
 */
export function UpdateCardDialog({ companyId, onClose, onUpdated }: { companyId: string; onClose: () => void; onUpdated: () => void }) {
  const { t } = useTranslation();
  const { data: config, error } = usePaymentsConfig();
  const updateCard = useUpdateCard(companyId);

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="update-card-title">
      <DialogTitle id="update-card-title">{t('management.billing.updateCardTitle')}</DialogTitle>
      <DialogContent>
        <QueryFailure error={error} />
        {!config && !error && <CircularProgress size={24} aria-label={t('management.billing.cardCheckoutLoading')} />}
        {config?.mode === 'paddle' && <PaddleCardUpdate companyId={companyId} config={config} onUpdated={onUpdated} />}
        {config?.mode === 'off' && (
          <Alert severity="warning" role="alert">
            {t('management.billing.cardPaymentsOff')}
          </Alert>
        )}
        {config?.mode === 'stand-in' && <CardForm submit={(card) => updateCard.mutateAsync(card)} submitLabel={t('management.billing.saveCard')} onCompleted={onUpdated} />}
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
  const [state, setState] = useState<'checkout' | 'confirming' | 'unconfirmed'>('checkout');
  // Paddle's script failing to load or open.
  const [widgetError, setWidgetError] = useState<unknown>(null);
  const opened = useCardCheckout(companyId);
  const ready = opened.data;
  const watch = useCardOnFileWatch(companyId, state === 'confirming', CARD_POLL_MS, CARD_POLLS);
  // The new card is on file once a card read differs from the one before; after CARD_POLLS reads, it is left unconfirmed.
  const changed = state === 'confirming' && ready !== undefined && watch.reads > 0 && !sameCard(watch.card ?? null, ready.before);
  const shown = state === 'confirming' && !changed && watch.reads >= CARD_POLLS ? 'unconfirmed' : state;

  // Paddle's checkout opens in the frame once the transaction is in; closed with the dialog.
  useEffect(() => {
    const container = frame.current;
    if (!ready || !container) return;
    let live = true;
    let close: (() => void) | null = null;
    void openCheckout(
      { deploymentId: ready.checkout.deploymentId, container, transactionId: ready.checkout.transactionId, purpose: 'pastDue', email: ready.checkout.email, onCompleted: () => live && setState('confirming') },
      async () => config,
    ).then(
      (handle) => (live ? (close = () => handle.close()) : handle.close()),
      (error: unknown) => live && setWidgetError(error),
    );
    return () => {
      live = false;
      close?.();
    };
  }, [ready, config]);

  useEffect(() => {
    if (changed) onUpdated();
    // onUpdated is read when the card has changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [changed]);
  const failure = opened.error ?? widgetError;

  return (
    <>
      <QueryFailure error={failure} sx={{ mb: 2 }} />
      {shown === 'confirming' && (
        <Alert severity="info" role="status" sx={{ mb: 2 }}>
          {t('management.billing.cardConfirming')}
        </Alert>
      )}
      {shown === 'unconfirmed' && (
        <Alert severity="info" role="status" sx={{ mb: 2 }}>
          {t('management.billing.cardNotConfirmed')}
        </Alert>
      )}
      {!failure && <Box ref={frame} data-testid="card-checkout-frame" sx={{ minHeight: CHECKOUT_FRAME_HEIGHT, display: state === 'checkout' ? 'block' : 'none' }} />}
    </>
  );
}
