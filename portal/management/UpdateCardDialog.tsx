import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useTranslation } from 'react-i18next';
import { ordersApi } from '../../dataProvider/orders';
import { CardForm } from '../wizard/CardForm';

/** "Update card" (Management › Billing), at any time: the new card goes on file for every server. */
export function UpdateCardDialog({ companyId, onClose, onUpdated }: { companyId: string; onClose: () => void; onUpdated: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="update-card-title">
      <DialogTitle id="update-card-title">{t('management.billing.updateCardTitle')}</DialogTitle>
      <DialogContent>
        <CardForm submit={(card) => ordersApi.updateCard(companyId, card)} submitLabel={t('management.billing.saveCard')} onCompleted={onUpdated} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('wizard.paymentModal.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
