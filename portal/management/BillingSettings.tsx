import CreditCard from '@mui/icons-material/CreditCard';
import Paper from '@mui/material/Paper';
import { useTranslation } from 'react-i18next';
import { EmptyView } from '../../src/ui/EmptyView';

/** Management › Billing (SPEC §2); payment methods and invoices arrive with their own issue. */
export function BillingSettings() {
  const { t } = useTranslation();
  return (
    <Paper variant="outlined">
      <EmptyView icon={<CreditCard />} title={t('management.billing.title')} message={t('management.billing.message')} canCreate={false} />
    </Paper>
  );
}
