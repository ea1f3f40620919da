import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ordersApi, type CheckoutSummary } from '../../dataProvider/orders';
import { failureMessage } from '../../src/ui/form/messages';
import { formatAmount } from '../../src/ui/format';
import { taxLabelText, taxLineText } from '../../src/ui/taxLabel';
import { showToast } from '../../src/ui/toast/toastStore';
import { CHECKOUT_FRAME_HEIGHT, openCheckout } from './checkout';
import { wizard } from './store';
import './i18n';

/** How long the step waits for the payment's notification to make the subscription active. */
const ACTIVE_POLLS = 40;
const ACTIVE_POLL_MS = 500;

/**
 * Read from the company's billing, which everyone who may pay may read (admins and the billing
 * role, ACCESS_LEVELS.billing); the server's own page is not the billing role's to read.
 */
async function waitUntilActive(companyId: string, deploymentId: string): Promise<boolean> {
  for (let i = 0; i < ACTIVE_POLLS; i++) {
    const billing = await ordersApi.billing(companyId).catch(() => null);
    if (billing?.subscriptions.find((s) => s.deploymentId === deploymentId)?.status === 'active') return true;
    await new Promise((r) => setTimeout(r, ACTIVE_POLL_MS));
  }
  return false;
}

/**
 * SPEC §2 payment: the summary (base tier, add-ons, tax note, total) and the inline checkout; the
 * wizard's paymentDetails step and the payment modal both show it. With nothing due, `onNotDue`
 * runs (by default `onPaid`: an edit that charged nothing has nothing to pay). A checkout that
 * cannot be opened (no such server, another company's) goes to `onUnavailable` when given, else
 * its message shows beside the summary.
 */
export function PaymentStep({
  deploymentId,
  onPaid,
  onNotDue = onPaid,
  onUnavailable,
}: {
  deploymentId: string;
  onPaid: (summary: CheckoutSummary) => void;
  onNotDue?: (summary: CheckoutSummary) => void;
  onUnavailable?: (error: unknown) => void;
}) {
  const { t } = useTranslation();
  const frame = useRef<HTMLDivElement>(null);
  const [summary, setSummary] = useState<CheckoutSummary | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [paymentsOff, setPaymentsOff] = useState(false);

  useEffect(() => {
    let live = true;
    let close: (() => void) | null = null;
    ordersApi.checkout(deploymentId).then(
      async (s) => {
        if (!live) return;
        setSummary(s);
        if (!s.paymentRequired) return onNotDue(s);
        const container = frame.current;
        if (!container) return;
        const config = await ordersApi.paymentsConfig();
        if (!live) return;
        // No payment provider: say so plainly instead of a card form the server would refuse.
        if (config.mode === 'off') return setPaymentsOff(true);
        const handle = await openCheckout(
          {
            deploymentId,
            container,
            transactionId: s.transactionId,
            purpose: s.purpose ?? 'order',
            email: s.customer.email,
            cardOnFile: s.cardOnFile,
            onCompleted: () => {
              setConfirming(true);
              void waitUntilActive(s.companyId, deploymentId).then((active) => (active ? onPaid(s) : setFailure(t('wizard.payment.notConfirmed'))));
            },
            // SPEC §4: a discount applied in the checkout records its code and totals.
            onDiscountApplied: ({ code, total }) =>
              wizard.update((w) => ({ pricing: w.pricing && { ...w.pricing, isDiscountApplied: true, discountCode: code, discountedTotal: w.pricing.discountedTotal && total ? { ...w.pricing.discountedTotal, total } : w.pricing.discountedTotal } })),
            onDiscountRemoved: () => {
              wizard.update((w) => ({ pricing: w.pricing && { ...w.pricing, isDiscountApplied: false, discountCode: null } }));
              showToast({ text: t('wizard.payment.discountRemoved') });
            },
          },
          async () => config,
        );
        if (live) close = () => handle.close();
        else handle.close();
      },
      (e: unknown) => {
        if (!live) return;
        if (onUnavailable) onUnavailable(e);
        else setFailure(failureMessage(e, t));
      },
    );
    return () => {
      live = false;
      close?.();
    };
    // The checkout opens once per server; onPaid, onNotDue and onUnavailable are read at that moment.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [deploymentId]);

  const base = summary?.items.find((i) => i.kind === 'base');
  const addOns = summary?.items.filter((i) => i.kind !== 'base') ?? [];
  const per = summary?.cycle === 'year' ? t('pricingPage.perYear') : t('pricingPage.perMonth');
  return (
    <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, alignItems: 'start' }}>
      <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 } }} aria-label={t('wizard.payment.summary')} component="section">
        <Typography variant="h2" sx={{ fontSize: '1.25rem', mb: 2 }}>
          {t('wizard.payment.summary')}
        </Typography>
        {!summary && !failure && <CircularProgress size={24} />}
        {summary && (
          <>
            <Typography sx={{ fontWeight: 600, mb: 1 }}>{summary.name}</Typography>
            {base && <Line label={t('wizard.payment.baseTier', { name: base.name })} amount={base.amount} />}
            {addOns.map((l) => (
              <Line key={`${l.kind}-${l.refId ?? ''}`} label={l.name} amount={l.amount} />
            ))}
            <Divider sx={{ my: 1.5 }} />
            {/* The tax names its rate and country (the company's current one), the total what it includes. */}
            <Line label={taxLineText(summary.taxBasis, t)} amount={summary.tax} testId="summary-tax" />
            <Line label={t('pricingPage.total')} amount={summary.total.amount} strong suffix={`${per} ${taxLabelText(summary.taxBasis, t)}`} testId="summary-total" />
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              {t('wizard.payment.taxNote')}
            </Typography>
          </>
        )}
      </Paper>
      <Box>
        {failure && (
          <Alert severity="error" role="alert" sx={{ mb: 2 }}>
            {failure}
          </Alert>
        )}
        {paymentsOff && (
          <Alert severity="warning" role="alert" sx={{ mb: 2 }}>
            {t('wizard.payment.paymentsOff')}
          </Alert>
        )}
        {confirming && !failure && (
          <Alert severity="info" role="status" sx={{ mb: 2 }}>
            {t('wizard.payment.confirming')}
          </Alert>
        )}
        <Box ref={frame} data-testid="checkout-frame" sx={{ minHeight: CHECKOUT_FRAME_HEIGHT, display: confirming || paymentsOff ? 'none' : 'block' }} />
      </Box>
    </Box>
  );
}

function Line({ label, amount, strong, suffix = '', testId }: { label: string; amount: string; strong?: boolean; suffix?: string; testId?: string }) {
  return (
    <Box data-testid={testId} sx={{ display: 'flex', justifyContent: 'space-between', gap: 2, py: 0.5, fontWeight: strong ? 700 : 400 }}>
      <span>{label}</span>
      <span>{`${formatAmount(amount, { cents: 'always' })}${suffix}`}</span>
    </Box>
  );
}
