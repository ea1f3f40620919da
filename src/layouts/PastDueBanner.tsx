import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { companiesApi } from '../../dataProvider/companies';
import { ordersApi } from '../../dataProvider/orders';
import { useSelection } from '../companySelection';
import { TIMINGS } from '../domain/constants';
import type { PastDueDeployment } from '../domain/orders/schemas';
import { usePolling } from '../ui/usePolling';
import '../billingI18n';

const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

/** The company's past-due servers, for its admins only: viewers cannot update the card. */
export async function loadPastDue(companyId: string): Promise<PastDueDeployment[]> {
  const servers = await ordersApi.pastDue(companyId);
  // Most checks find nothing; only then is the member's role worth asking for.
  if (servers.length === 0) return servers;
  const company = await companiesApi.get(companyId);
  return company.role === 'admin' ? servers : [];
}

/**
 * The past-due warning under the navbar (issue 13): checked on entering and every few minutes.
 * A failed check shows nothing; the billing page is where errors are told.
 */
export function PastDueBanner() {
  const { t } = useTranslation();
  const { companyId } = useSelection();
  const { data } = usePolling(companyId, loadPastDue, TIMINGS.pastDueCheckMs);
  if (!data?.length) return null;
  // The soonest pause is the date that matters.
  const pauseAt = data.reduce((soonest, d) => (d.pauseAfter < soonest ? d.pauseAfter : soonest), data[0]?.pauseAfter ?? '');
  return (
    <Alert severity="warning" role="alert" data-testid="past-due-banner" sx={{ borderRadius: 0, justifyContent: 'center' }}>
      {t('nav.pastDue', { count: data.length, date: day.format(new Date(pauseAt)) })}{' '}
      <Link component={RouterLink} to="/management/billing" color="inherit" sx={{ fontWeight: 700 }}>
        {t('nav.pastDueLink')}
      </Link>
    </Alert>
  );
}
