import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { type ReactNode, startTransition, useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { getPublicConfigurables, getPublicPlans } from '../../dataProvider/catalogue';
import { DEFAULTS, type BillingCycle } from '../../src/domain/constants';
import type { OptionList } from '../../src/domain/pricing';
import { formatCents } from '../../src/ui/format';
import './i18n';
import { PAST_TIER_RULE } from '../../src/domain/usage/mauRule';
import { calculatorOptions, choosePlan, EMPTY_SELECTION, optionState, quoteOf, toggleFeature, type CalculatorOptions, type OptionState, type Selection } from './calculator';
import { OptionCard, PlanCard, useCycleMoney } from './OptionCard';

function Section({ title, hint, children }: { title: string; hint?: string; children: ReactNode }) {
  return (
    <Box component="section" aria-label={title} sx={{ mb: 5 }}>
      <Typography variant="h2" sx={{ mb: 0.5 }}>
        {title}
      </Typography>
      {hint && (
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {hint}
        </Typography>
      )}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(3, 1fr)', lg: 'repeat(4, 1fr)' } }}>{children}</Box>
    </Box>
  );
}

/** 'Order' opens the pre-login wizard with the calculator's choice carried over. */
function orderLink(s: Selection): string {
  const query = new URLSearchParams();
  if (s.planId) query.set('plan', s.planId);
  if (s.regionId) query.set('region', s.regionId);
  for (const f of s.featureIds) query.append('feature', f);
  if (s.domainId) query.set('domain', s.domainId);
  if (s.retentionId) query.set('retention', s.retentionId);
  query.set('cycle', s.cycle);
  return `/get-started/choose-plan?${query.toString()}`;
}

/** The public pricing calculator (SPEC §2): no account needed, prices from the shared engine. */
export default function PricingPage() {
  const { t } = useTranslation();
  const [options, setOptions] = useState<CalculatorOptions | null>(null);
  const [failed, setFailed] = useState(false);
  const [selection, setSelection] = useState<Selection>(EMPTY_SELECTION);

  const load = useCallback(
    () =>
      Promise.all([getPublicPlans(), getPublicConfigurables(DEFAULTS.providerCode)])
        // A transition: the calculator's many cards render in slices, the page staying responsive meanwhile.
        .then(([plans, conf]) => startTransition(() => setOptions(calculatorOptions(plans, conf))))
        .catch(() => setFailed(true)),
    [],
  );
  useEffect(() => {
    void load();
  }, [load]);
  const retry = () => {
    setFailed(false);
    void load();
  };

  const plan = options?.plans.find((p) => p._id === selection.planId);
  const quote = useMemo(() => (options ? quoteOf(options, selection) : null), [options, selection]);
  const per = selection.cycle === 'year' ? t('pricingPage.perYear') : t('pricingPage.perMonth');
  const money = useCycleMoney(selection.cycle);
  const stateText = (state: OptionState) =>
    state.kind === 'noPlan' ? t('pricingPage.choosePlanToSeePrice') : state.kind === 'unavailable' ? t('pricingPage.notAvailable') : money(state.monthlyCents);
  /** Price, selection and availability of one option card for the chosen plan. */
  const choice = (list: OptionList, refId: string, selected: boolean, next: (s: Selection) => Selection) => {
    const state = optionState(plan, list, refId);
    return { price: stateText(state), selected, disabled: state.kind !== 'price', onSelect: () => setSelection(next) };
  };

  if (failed) {
    return (
      <Box sx={{ maxWidth: 640, mx: 'auto', p: 4 }}>
        <Alert severity="error" action={<Button onClick={retry}>{t('pricingPage.retry')}</Button>}>
          {t('pricingPage.loadFailed')}
        </Alert>
      </Box>
    );
  }
  const total = quote ? formatCents(quote.total) : null;
  return (
    <>
      <Paper
        square
        elevation={0}
        sx={{ position: 'sticky', top: 0, zIndex: 2, borderBottom: 1, borderColor: 'divider', px: { xs: 2, md: 4 }, py: 1.5 }}
      >
        <Box sx={{ maxWidth: 1280, mx: 'auto', display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: { xs: 1, md: 3 } }}>
          <Box sx={{ flex: 1, minWidth: 180 }} aria-live="polite">
            <Typography variant="overline" color="text.secondary" sx={{ lineHeight: 1.5 }}>
              {t('pricingPage.total')}
            </Typography>
            <Typography data-testid="pricing-total" sx={{ fontSize: { xs: '1.5rem', md: '1.75rem' }, fontWeight: 700, lineHeight: 1.2 }}>
              {!quote ? t('pricingPage.choosePlanFirst') : total ? `${total}${per}` : t('pricingPage.free')}
            </Typography>
          </Box>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
            <ToggleButtonGroup
              exclusive
              size="small"
              color="primary"
              aria-label={t('pricingPage.billingCycle')}
              value={selection.cycle}
              onChange={(_, cycle: BillingCycle | null) => cycle && setSelection((s) => ({ ...s, cycle }))}
            >
              <ToggleButton value="month">{t('pricingPage.monthly')}</ToggleButton>
              <ToggleButton value="year">{t('pricingPage.yearly')}</ToggleButton>
            </ToggleButtonGroup>
            {selection.cycle === 'year' && <Chip color="success" size="small" label={t('pricingPage.yearlySaving')} />}
          </Box>
          <Button variant="contained" component={RouterLink} to={orderLink(selection)} disabled={!quote}>
            {t('pricingPage.order')}
          </Button>
        </Box>
      </Paper>

      <Box sx={{ maxWidth: 1280, mx: 'auto', px: { xs: 2, md: 4 }, py: 4 }}>
        <Typography variant="h1" sx={{ mb: 1 }}>
          {t('pricingPage.heading')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 0.5 }}>
          {t('pricingPage.intro')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 4 }}>
          {t('pricingPage.beforeTax')}
        </Typography>

        {/* The bar, heading and intro show at once (and are in the prerendered first screen); the choices once the catalogue is here. */}
        {!options ? (
          <Box role="status" sx={{ display: 'flex', justifyContent: 'center', p: 8 }}>
            <CircularProgress aria-label={t('titles.loading')} />
          </Box>
        ) : (
          <>
            <Section title={t('pricingPage.plans')} hint={`${t('pricingPage.plansHint')} ${t(PAST_TIER_RULE.messageKey)}`}>
              {options.plans.map((p) => (
                <PlanCard key={p._id} plan={p} cycle={selection.cycle} selected={p._id === selection.planId} onSelect={() => setSelection((s) => choosePlan(options, s, p))} />
              ))}
            </Section>

            <Section title={t('pricingPage.regions')} hint={t('pricingPage.regionsHint')}>
              {options.regions.map((r) => (
                <OptionCard key={r._id} title={r.name} subtitle={r.code} {...choice('region', r._id, r._id === selection.regionId, (s) => ({ ...s, regionId: r._id }))} />
              ))}
            </Section>

            <Section title={t('pricingPage.features')} hint={t('pricingPage.featuresHint')}>
              {options.features.map((f) => (
                <OptionCard key={f._id} title={f.name} subtitle={f.description} {...choice('feature', f._id, selection.featureIds.includes(f._id), (s) => toggleFeature(s, f._id))} />
              ))}
              <OptionCard title={t('pricingPage.journeysName')} subtitle={t('pricingPage.journeysDescription')} price={t('pricingPage.journeysPrice')} selected />
            </Section>

            <Section title={t('pricingPage.domain')}>
              {options.domains.map((d) => (
                <OptionCard key={d._id} title={d.name} subtitle={d.description} {...choice('feature', d._id, d._id === selection.domainId, (s) => ({ ...s, domainId: d._id }))} />
              ))}
            </Section>

            <Section title={t('pricingPage.retention')}>
              {options.retentions.map((r) => (
                <OptionCard key={r._id} title={r.name} subtitle={r.description} {...choice('feature', r._id, r._id === selection.retentionId, (s) => ({ ...s, retentionId: r._id }))} />
              ))}
            </Section>
          </>
        )}
      </Box>
    </>
  );
}
