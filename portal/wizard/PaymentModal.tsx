import CheckCircle from '@mui/icons-material/CheckCircle';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { PaymentStep } from './PaymentStep';
import './i18n';

/** Where 'Go to dashboard' leads: SPEC §4, completion in the payment modal opens the dashboard with success=true. */
export const paymentSuccessPath = (dashboardPath: string) => `${dashboardPath}?success=true`;

/**
 * SPEC §2 payment modal: the same summary and inline checkout as the wizard's payment step, in a
 * dialog; once paid, a success view whose button opens the dashboard. Used from Management ›
 * Billing to pay a pending server or a past-due renewal with a new card.
 */
export function PaymentModal({ deployment, dashboardPath, onClose, onPaid }: { deployment: { id: string; name: string }; dashboardPath: string; onClose: () => void; onPaid: () => void }) {
  const { t } = useTranslation();
  const [state, setState] = useState<'paying' | 'paid' | 'notDue'>('paying');
  const paid = useRef(onPaid);
  useEffect(() => {
    paid.current = onPaid;
  });

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" scroll="body" aria-labelledby="payment-modal-title">
      <DialogTitle id="payment-modal-title">{state === 'paid' ? t('wizard.paymentModal.paidTitle') : t('wizard.paymentModal.title', { name: deployment.name })}</DialogTitle>
      <DialogContent>
        {state === 'paying' && (
          <PaymentStep
            deploymentId={deployment.id}
            onPaid={() => {
              setState('paid');
              paid.current();
            }}
            onNotDue={() => setState('notDue')}
          />
        )}
        {state === 'notDue' && <Alert severity="info">{t('wizard.paymentModal.notDue')}</Alert>}
        {state === 'paid' && (
          <Box role="status" sx={{ textAlign: 'center', py: { xs: 2, md: 4 } }}>
            <CheckCircle color="success" sx={{ fontSize: 56 }} aria-hidden />
            <Typography sx={{ mt: 1.5 }}>{t('wizard.paymentModal.paidBody', { name: deployment.name })}</Typography>
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        {state === 'paid' ? (
          <Button variant="contained" component={RouterLink} to={paymentSuccessPath(dashboardPath)}>
            {t('wizard.created.toDashboard')}
          </Button>
        ) : (
          <Button onClick={onClose}>{t('wizard.paymentModal.close')}</Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
