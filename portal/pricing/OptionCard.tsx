import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { PlanDto } from '../../dataProvider/catalogue';
import type { BillingCycle } from '../../src/domain/constants';
import { mauFromPlanCode } from '../../src/domain/plans/planCode';
import { cycleCents, priceCents } from '../../src/domain/pricing';
import { abbreviateNumber, formatCents } from '../../src/ui/format';

interface OptionCardProps {
  title: string;
  subtitle?: string;
  price: ReactNode;
  selected: boolean;
  disabled?: boolean;
  onSelect?: () => void;
}

/** A selectable card: a toggle button to assistive tech (aria-pressed), a card to the eye. */
export function OptionCard({ title, subtitle, price, selected, disabled = false, onSelect }: OptionCardProps) {
  const body = (
    <Box sx={{ p: 2, height: '100%', display: 'flex', flexDirection: 'column', gap: 0.5 }}>
      <Typography sx={{ fontWeight: 700 }}>{title}</Typography>
      {subtitle && (
        <Typography variant="body2" color="text.secondary">
          {subtitle}
        </Typography>
      )}
      <Typography variant="body2" sx={{ mt: 'auto', pt: 1, fontWeight: 600, color: disabled ? 'text.disabled' : 'primary.main' }}>
        {price}
      </Typography>
    </Box>
  );
  return (
    <Card
      variant="outlined"
      sx={{
        height: '100%',
        borderWidth: 2,
        borderColor: selected ? 'primary.main' : 'divider',
        bgcolor: selected ? 'rgba(26, 86, 219, 0.06)' : disabled ? 'action.hover' : 'background.paper',
        opacity: disabled ? 0.7 : 1,
      }}
    >
      {onSelect ? (
        <CardActionArea disabled={disabled} aria-pressed={selected} onClick={onSelect} sx={{ height: '100%' }}>
          {body}
        </CardActionArea>
      ) : (
        body
      )}
    </Card>
  );
}

/** A monthly price as the cards show it in the chosen billing cycle ("$490/yr"), or "Free". */
export function useCycleMoney(cycle: BillingCycle): (monthlyCents: number) => string {
  const { t } = useTranslation();
  const per = cycle === 'year' ? t('pricingPage.perYear') : t('pricingPage.perMonth');
  return (monthlyCents) => {
    const text = formatCents(cycleCents(monthlyCents, cycle));
    return text ? `${text}${per}` : t('pricingPage.free');
  };
}

/** A plan's card, on the pricing page and in the wizard: its name, its monthly active users, its base price. */
export function PlanCard({ plan, cycle, selected, onSelect }: { plan: PlanDto; cycle: BillingCycle; selected: boolean; onSelect: () => void }) {
  const { t } = useTranslation();
  const money = useCycleMoney(cycle);
  return (
    <OptionCard
      title={plan.name}
      subtitle={t('pricingPage.mau', { mau: abbreviateNumber(mauFromPlanCode(plan.code) ?? 0) })}
      price={money(priceCents(plan.basePricing))}
      selected={selected}
      onSelect={onSelect}
    />
  );
}
