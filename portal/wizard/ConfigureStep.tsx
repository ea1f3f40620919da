import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { BillingCycle } from '../../src/domain/constants';
import type { OptionList } from '../../src/domain/pricing';
import { PlainTextField } from '../../src/ui/form/PlainTextField';
import { optionState } from '../pricing/calculator';
import { OptionCard, PlanCard, useCycleMoney } from '../pricing/OptionCard';
import { orderOnPlan, type Order, type WizardOptions } from './options';
import type { WizardStep } from './steps';
import './i18n';
import { PAST_TIER_RULE } from '../../src/domain/usage/mauRule';

function Grid({ title, hint, children }: { title: string; hint?: string; children: ReactNode }) {
  return (
    <Box component="section" aria-label={title} sx={{ mb: 4 }}>
      <Typography variant="h2" sx={{ mb: 0.5, fontSize: { xs: '1.2rem', md: '1.5rem' } }}>
        {title}
      </Typography>
      {hint && (
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {hint}
        </Typography>
      )}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(3, 1fr)' } }}>{children}</Box>
    </Box>
  );
}

/**
 * The plan step: the billing cycle, then the plans. Without plans (`children` null, the catalogue
 * still loading) it shows the same heading and hint with a spinner where the plans go, so that the
 * step's text is on the first screen and does not wait for the catalogue.
 */
export function PlanChoice({ cycle, onCycle, children }: { cycle: BillingCycle; onCycle?: (cycle: BillingCycle) => void; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 2, flexWrap: 'wrap' }}>
        <ToggleButtonGroup exclusive size="small" color="primary" disabled={!onCycle} aria-label={t('pricingPage.billingCycle')} value={cycle} onChange={(_, c: BillingCycle | null) => c && onCycle?.(c)}>
          <ToggleButton value="month">{t('pricingPage.monthly')}</ToggleButton>
          <ToggleButton value="year">{t('pricingPage.yearly')}</ToggleButton>
        </ToggleButtonGroup>
        {cycle === 'year' && <Chip color="success" size="small" label={t('pricingPage.yearlySaving')} />}
      </Box>
      <Grid title={t('wizard.steps.choosePlan')} hint={`${t('pricingPage.plansHint')} ${t(PAST_TIER_RULE.messageKey)}`}>
        {children ?? (
          <Box role="status" sx={{ gridColumn: '1 / -1', display: 'flex', justifyContent: 'center', p: 4 }}>
            <CircularProgress aria-label={t('titles.loading')} />
          </Box>
        )}
      </Grid>
    </>
  );
}

export interface ConfigureStepProps {
  step: WizardStep;
  options: WizardOptions;
  order: Order;
  cycle: BillingCycle;
  name: string;
  onOrder: (order: Order) => void;
  onCycle: (cycle: BillingCycle) => void;
  onName: (name: string) => void;
  /** Edit mode: options SPEC §4 refuses are still shown, the refusal says why. */
  nameError?: string | null;
}

/** One configuration step of the wizard: plan, region, core features, add-ons or extras. */
export function ConfigureStep({ step, options, order, cycle, name, onOrder, onCycle, onName, nameError }: ConfigureStepProps) {
  const { t } = useTranslation();
  const plan = options.plans.find((p) => p._id === order.planId);
  const money = useCycleMoney(cycle);
  const card = (list: OptionList, item: { _id: string; name: string; description?: string; code: string }, selected: boolean, pick: () => Order) => {
    const state = optionState(plan, list, item._id);
    return (
      <OptionCard
        key={item._id}
        title={item.name}
        subtitle={item.description ?? item.code}
        price={state.kind === 'price' ? money(state.monthlyCents) : t('pricingPage.notAvailable')}
        selected={selected}
        disabled={state.kind !== 'price'}
        onSelect={() => onOrder(pick())}
      />
    );
  };
  const toggle = (id: string): Order => {
    const has = order.planConfig.features.includes(id);
    return { ...order, planConfig: { ...order.planConfig, features: has ? order.planConfig.features.filter((f) => f !== id) : [...order.planConfig.features, id] } };
  };
  const special = (key: keyof Order['specialFeatures'], id: string): Order => ({ ...order, specialFeatures: { ...order.specialFeatures, [key]: id } });

  switch (step) {
    case 'choosePlan':
    case 'preloginChoosePlan':
      return (
        <PlanChoice cycle={cycle} onCycle={onCycle}>
          {options.plans.map((p) => (
            <PlanCard key={p._id} plan={p} cycle={cycle} selected={p._id === order.planId} onSelect={() => onOrder(orderOnPlan(options, p, order))} />
          ))}
        </PlanChoice>
      );
    case 'chooseRegion':
    case 'preloginChooseRegion':
      return <Grid title={t('wizard.steps.chooseRegion')} hint={t('pricingPage.regionsHint')}>{options.regions.map((r) => card('region', { ...r, description: r.code }, r._id === order.planConfig.region, () => ({ ...order, planConfig: { ...order.planConfig, region: r._id } })))}</Grid>;
    case 'coreFeatures':
      return <Grid title={t('wizard.steps.coreFeatures')} hint={t('pricingPage.featuresHint')}>{options.features.map((f) => card('feature', f, order.planConfig.features.includes(f._id), () => toggle(f._id)))}</Grid>;
    case 'chooseAddOns':
      return <Grid title={t('wizard.steps.chooseAddOns')} hint={t('wizard.addOnsHint')}>{options.addOns.map((f) => card('feature', f, order.planConfig.features.includes(f._id), () => toggle(f._id)))}</Grid>;
    case 'chooseExtras':
      return (
        <>
          <Box sx={{ mb: 4, maxWidth: 480 }}>
            <PlainTextField label={t('wizard.serverName')} value={name} onChange={onName} error={nameError} maxLength={64} />
          </Box>
          <Grid title={t('pricingPage.domain')}>{options.domains.map((d) => card('feature', d, d._id === order.specialFeatures.domain, () => special('domain', d._id)))}</Grid>
          <Grid title={t('pricingPage.retention')}>{options.retentions.map((r) => card('feature', r, r._id === order.specialFeatures.retention, () => special('retention', r._id)))}</Grid>
          <Grid title={t('wizard.backup')}>{options.backups.map((b) => card('feature', b, b._id === order.specialFeatures.backup, () => special('backup', b._id)))}</Grid>
        </>
      );
    default:
      return null;
  }
}
