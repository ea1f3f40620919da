import Payment from '@mui/icons-material/Payment';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DeploymentView } from '../../dataProvider/deployments';
import { useSelection } from '../../src/companySelection';
import { PaymentModal } from '../wizard/PaymentModal';

/**
 * "Complete payment" on a server whose order awaits its first payment: opens the payment modal
 * for exactly that order, wherever the server is shown (its page, its card, the deployments list).
 */
export function CompletePayment({ deployment: d, onPaid, size = 'small' }: { deployment: Pick<DeploymentView, '_id' | 'name' | 'billing'>; onPaid?: () => void; size?: 'small' | 'medium' }) {
  const { t } = useTranslation();
  const { companyId, projectId } = useSelection();
  const [open, setOpen] = useState(false);
  const pending = d.billing.status === 'pending';
  // An open modal stays until it is closed: the refresh its payment starts makes the server
  // no longer pending, and unmounting then would take the "Payment received" step away.
  if (!pending && !open) return null;
  const dashboardPath = companyId && projectId ? `/c/${companyId}/p/${projectId}/dashboard` : '/dashboard';
  return (
    <>
      {pending && (
        <Button size={size} variant="contained" startIcon={<Payment />} onClick={() => setOpen(true)} data-testid="complete-payment" aria-label={t('servers.completePaymentFor', { name: d.name })}>
          {t('servers.completePayment')}
        </Button>
      )}
      {open && <PaymentModal deployment={{ id: d._id, name: d.name }} dashboardPath={dashboardPath} onClose={() => setOpen(false)} onPaid={() => onPaid?.()} />}
    </>
  );
}
