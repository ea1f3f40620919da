import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { DeploymentView } from '../../dataProvider/deployments';
import { CompletePayment } from '../deployments/CompletePayment';
import { MauBar } from '../deployments/MauBar';
import { MauNotice } from '../deployments/MauForecastText';
import { formatAmount } from '../../src/ui/format';
import { ServerProgress } from '../deployments/ServerProgress';
import '../../src/billingI18n';
import { shortDate } from '../../src/ui/servers/status';
import { billingText, deploymentBillingFacts } from '../../src/ui/servers/billingText';
import { taxLabelText } from '../../src/ui/taxLabel';
import { StatusChip } from '../deployments/StatusChip';

/** What the billing line says: free, deleting, payment pending, or the next bill's amount and date. */
export function nextBillText(d: DeploymentView, t: (key: string, options?: Record<string, unknown>) => string): string {
  // The amount says what it includes: the company's current country, from the next bill on.
  return billingText(deploymentBillingFacts(d), `${formatAmount(d.billing.recurring.amount)} ${taxLabelText(d.billing.bill.basis, t)}`, t);
}

/** One server at a glance on the dashboard: status, plan, MAU against the tier, next bill. */
export function ServerCard({ deployment: d, to }: { deployment: DeploymentView; to: string }) {
  const { t } = useTranslation();
  return (
    <Paper component="li" variant="outlined" data-testid="server-card" sx={{ p: 2, display: 'grid', gap: 1.5, minWidth: 0 }}>
      <Box sx={{ display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', gap: 1 }}>
        <Box sx={{ minWidth: 0 }}>
          <Link component={RouterLink} to={to} underline="hover" sx={{ fontWeight: 700, fontSize: '1.0625rem', display: 'block', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} aria-label={t('servers.open', { name: d.name })}>
            {d.name}
          </Link>
          <Typography variant="body2" color="text.secondary" noWrap>
            {d.plan.name}
            {d.region ? ` · ${d.region.name}` : ''}
          </Typography>
        </Box>
        <StatusChip status={d.status} subscriptionStatus={d.billing.status} />
      </Box>
      <ServerProgress task={d.latestTask} />
      <MauBar used={d.mau.used} limit={d.mau.limit} forecast={d.mau.forecast} />
      <MauNotice used={d.mau.used} limit={d.mau.limit} forecast={d.mau.forecast} />
      <Typography variant="body2" data-testid="next-bill">
        {nextBillText(d, t)}
      </Typography>
      <Box sx={{ justifySelf: 'start' }}>
        <CompletePayment deployment={d} />
      </Box>
      {d.terminationScheduledAt && (
        <Typography variant="body2" color="warning.main">
          {t('servers.terminationScheduled', { date: shortDate.format(new Date(d.terminationScheduledAt)) })}
        </Typography>
      )}
    </Paper>
  );
}
