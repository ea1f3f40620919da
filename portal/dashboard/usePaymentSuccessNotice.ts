import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { showToast } from '../../src/ui/toast/toastStore';
import '../wizard/i18n';

/**
 * SPEC §4 Checkout: the payment modal's completion opens the dashboard with success=true. The
 * dashboard says so once and drops the flag, so a reload or a shared link does not say it again.
 */
export function usePaymentSuccessNotice(): void {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const query = new URLSearchParams(search);
    if (query.get('success') !== 'true') return;
    showToast({ text: t('wizard.paymentModal.paidNotice'), variant: 'successful' });
    query.delete('success');
    const rest = query.toString();
    navigate(`${pathname}${rest ? `?${rest}` : ''}`, { replace: true });
  }, [pathname, search, navigate, t]);
}
