import ShowChart from '@mui/icons-material/ShowChart';
import TrendingUp from '@mui/icons-material/TrendingUp';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { DeploymentPopulated } from '../../../dataProvider/deployments';
import { mauAlertConditions, PAST_TIER_RULE } from '../../../src/domain/usage/mauRule';
import { MauBar } from '../MauBar';
import { MauNotice } from '../MauForecastText';
// The past-tier rule's words are the pricing page's, where the customer first reads them.
import '../../pricing/i18n';
import { Section } from '../../../src/ui/servers/Section';

// recharts is loaded only when the customer asks for the history.
const MauHistoryChart = lazy(() => import('./MauHistoryChart'));

/** This month's MAU against the tier, and the monthly history as a chart on demand. */
export function MauPanel({ deployment: d }: { deployment: DeploymentPopulated }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  return (
    <Section title={t('deployment.mau.title')} testId="mau-panel">
      <MauBar used={d.mau.used} limit={d.mau.limit} forecast={d.mau.forecast} />
      <MauNotice used={d.mau.used} limit={d.mau.limit} forecast={d.mau.forecast} />
      <Typography variant="body2" color="text.secondary" data-testid="past-tier-rule">
        {t(PAST_TIER_RULE.messageKey)}
      </Typography>
      {mauAlertConditions(d.mau.used, d.mau.limit, d.mau.forecast).length > 0 && (
        <Button component={RouterLink} to={`/c/${d.company}/p/${d.project}/management/billing`} size="small" variant="outlined" startIcon={<TrendingUp />} sx={{ justifySelf: 'start' }}>
          {t('deployment.mau.nextTier')}
        </Button>
      )}
      {!shown && (
        <Button size="small" startIcon={<ShowChart />} onClick={() => setShown(true)} sx={{ justifySelf: 'start' }}>
          {t('deployment.mau.show')}
        </Button>
      )}
      {shown && d.mauHistory.length === 0 && <Typography color="text.secondary">{t('deployment.mau.none')}</Typography>}
      {shown && d.mauHistory.length > 0 && (
        <Suspense fallback={<Box sx={{ height: 240, display: 'grid', placeItems: 'center', color: 'text.secondary' }}>{t('deployment.mau.loading')}</Box>}>
          <MauHistoryChart history={d.mauHistory} limit={d.mau.limit} forecast={d.mau.forecast} />
        </Suspense>
      )}
    </Section>
  );
}
