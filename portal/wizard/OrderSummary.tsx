import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { BillingCycle } from '../../src/domain/constants';
import type { Quote, QuoteLine } from '../../src/domain/pricing';
import { orderLineName } from '../../src/domain/orders/lineName';
import { formatCents } from '../../src/ui/format';
import '../../src/taxI18n';
import type { WizardOptions } from './options';
import './i18n';

/**
 * What the visitor is about to order, beside the account form of the pre-login wizard's register
 * step: the plan and each option with its price, and the total per cycle.
 */
export function OrderSummary({ name, planId, quote, options, cycle }: { name: string; planId: string; quote: Quote; options: WizardOptions; cycle: BillingCycle }) {
  const { t } = useTranslation();
  const plan = options.plans.find((p) => p._id === planId);
  const label = (line: QuoteLine): string => {
    if (line.kind === 'base') return t('wizard.payment.baseTier', { name: plan?.name ?? '' });
    // Named as the order and the invoice name them (orderLineName).
    const name = line.kind === 'region' ? options.regions.find((r) => r._id === line.refId)?.name : line.refId ? options.byId.get(line.refId)?.name : undefined;
    return name ? orderLineName(line.kind, name) : '';
  };
  const per = cycle === 'year' ? t('pricingPage.perYear') : t('pricingPage.perMonth');
  const money = (cents: number) => (cents === 0 ? t('pricingPage.free') : (formatCents(cents) ?? ''));
  return (
    <Paper variant="outlined" component="section" aria-label={t('wizard.payment.summary')} sx={{ p: { xs: 2, md: 3 } }}>
      <Typography variant="h2" sx={{ fontSize: '1.15rem', mb: 1.5 }}>
        {t('wizard.payment.summary')}
      </Typography>
      <Typography sx={{ fontWeight: 600, mb: 1, overflowWrap: 'anywhere' }}>{name}</Typography>
      {quote.lines.map((line) => (
        <Row key={`${line.kind}-${line.refId ?? ''}`} label={label(line)} amount={money(line.amount)} />
      ))}
      <Divider sx={{ my: 1.5 }} />
      {/* A visitor has no billing country yet: the total is before tax, and says so. */}
      <Row label={t('pricingPage.total')} amount={quote.total === 0 ? t('pricingPage.free') : `${money(quote.total)}${per} ${t('taxNet')}`} strong />
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        {t('wizard.payment.taxNote')}
      </Typography>
    </Paper>
  );
}

function Row({ label, amount, strong }: { label: string; amount: string; strong?: boolean }) {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 2, py: 0.5, fontWeight: strong ? 700 : 400 }}>
      <span>{label}</span>
      <span>{amount}</span>
    </Box>
  );
}
