import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { usePastDue } from '../../dataProvider/orders/queries';
import { useSelection } from '../companySelection';
import '../billingI18n';

const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

/**
 * The past-due warning under the navbar: checked on entering and every few minutes.
 * A failed check shows nothing; the billing page is where errors are told.
 */
export function PastDueBanner() {
  const { t } = useTranslation();
  const { companyId } = useSelection();
  const { data } = usePastDue(companyId);
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
