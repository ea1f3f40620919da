import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useSendQuote } from '../../dataProvider/quotes/queries';
import type { QuoteDto, QuoteOrder } from '../../src/domain/billing/quotes';
import { QUOTE_TTL_DAYS } from '../../src/domain/billing/quotes';
import { FormDialog } from '../../src/ui/dialog/FormDialog';
import { useFormSubmit } from '../../src/ui/form/useFormSubmit';

/**
 * "Send for approval" from the wizard's last step: the configured server is priced and frozen as a
 * quote for the company's billing people, who approve and pay it (or decline it) under Billing.
 */
export function SendForApproval({ companyId, order, total, onCancel, onSent }: { companyId: string; order: QuoteOrder; total: string; onCancel: () => void; onSent: (quote: QuoteDto) => void }) {
  const { t } = useTranslation();
  const send = useSendQuote(companyId);
  const { run, failure, submitting } = useFormSubmit();
  return (
    <FormDialog
      title={t('wizard.approval.title')}
      submitLabel={t('wizard.approval.send')}
      cancelLabel={t('wizard.approval.cancel')}
      submitting={submitting}
      failure={failure}
      onCancel={onCancel}
      onSubmit={() => void run(async () => onSent(await send.mutateAsync(order)))}
    >
      <Typography sx={{ mb: 1.5 }}>{t('wizard.approval.what', { name: order.name, total })}</Typography>
      <Typography variant="body2" color="text.secondary">
        {t('wizard.approval.how', { days: QUOTE_TTL_DAYS })}
      </Typography>
    </FormDialog>
  );
}
