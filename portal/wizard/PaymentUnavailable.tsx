import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { ApiError } from '../../src/domain/apiError';
import type { SubscriptionStatus } from '../../src/domain/orders/schemas';
import { failureMessage } from '../../src/ui/form/messages';
import './i18n';

/** Why a payment address opens no checkout: nothing is due for its server (paid already, free), or the checkout was refused. */
export type PaymentUnavailableReason = { kind: 'notDue'; name: string; status: SubscriptionStatus; free: boolean } | { kind: 'refused'; error: unknown };

type T = (key: string, options?: Record<string, unknown>) => string;

/** The reason in plain words: what the user can learn of the server, and nothing more. */
export function paymentUnavailableText(reason: PaymentUnavailableReason, t: T): string {
  if (reason.kind === 'notDue') {
    if (reason.free) return t('wizard.payment.unavailable.free', { name: reason.name });
    return t(reason.status === 'active' ? 'wizard.payment.unavailable.paid' : 'wizard.payment.unavailable.notDue', { name: reason.name });
  }
  const code = reason.error instanceof ApiError ? reason.error.code : undefined;
  // An id that is no server's (malformed, unknown, deleted) is one nobody can pay.
  if (code === 'DEPLOYMENT_NOT_FOUND' || code === 'VALIDATION_FAILED') return t('wizard.payment.unavailable.notFound');
  if (code === 'NOT_A_MEMBER') return t('wizard.payment.unavailable.notYours');
  if (code === 'ROLE_REQUIRED') return t('wizard.payment.unavailable.adminOnly');
  return t('wizard.payment.unavailable.failed', { reason: failureMessage(reason.error, t) });
}

/**
 * The payment step when its address opens no checkout: the reason, and the way on (the servers
 * list, where an unpaid server offers "Complete payment").
 */
export function PaymentUnavailable({ reason, deploymentsPath }: { reason: PaymentUnavailableReason; deploymentsPath: string }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ maxWidth: 640, mx: 'auto', py: { xs: 2, md: 4 } }}>
      <Alert severity={reason.kind === 'notDue' ? 'info' : 'warning'} role="alert" data-testid="payment-unavailable">
        <AlertTitle>{t(reason.kind === 'notDue' ? 'wizard.payment.unavailable.notDueTitle' : 'wizard.payment.unavailable.title')}</AlertTitle>
        {paymentUnavailableText(reason, t)}
      </Alert>
      <Button variant="contained" component={RouterLink} to={deploymentsPath} sx={{ mt: 3 }}>
        {t('wizard.payment.unavailable.toDeployments')}
      </Button>
    </Box>
  );
}
