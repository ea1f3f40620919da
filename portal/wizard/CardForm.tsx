import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ordersApi } from '../../dataProvider/orders';
import { failureMessage } from '../../src/ui/form/messages';
import './i18n';

export interface CheckoutProps {
  deploymentId: string;
  purpose: 'order' | 'pastDue';
  onCompleted: () => void;
}

/** The stand-in's card form: the order's payment, or (submit given) a new card on file. */
export function CardForm({ deploymentId, purpose, onCompleted, submit, submitLabel }: Partial<Omit<CheckoutProps, 'onCompleted'>> & { onCompleted: () => void; submit?: (card: { cardNumber: string; expiry: string; cvc: string; cardholderName?: string }) => Promise<unknown>; submitLabel?: string }) {
  const { t } = useTranslation();
  const [card, setCard] = useState({ cardNumber: '', expiry: '', cvc: '', cardholderName: '' });
  const [failure, setFailure] = useState<string | null>(null);
  const [paying, setPaying] = useState(false);
  const field = (name: keyof typeof card) => ({ value: card[name], onChange: (e: { target: { value: string } }) => setCard((c) => ({ ...c, [name]: e.target.value })) });

  const pay = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    setPaying(true);
    try {
      const body = { ...card, cardholderName: card.cardholderName || undefined };
      await (submit ? submit(body) : ordersApi.payStandIn(deploymentId ?? '', body));
      onCompleted();
    } catch (error) {
      // A declined card says why and leaves the form for another try.
      setFailure(failureMessage(error, t));
      setPaying(false);
    }
  };

  return (
    <Box component="form" noValidate onSubmit={(e) => void pay(e)} aria-label={t('wizard.payment.cardForm')}>
      <Stack spacing={2}>
        <Typography variant="body2" color="text.secondary">
          {t('wizard.payment.standInNote')}
        </Typography>
        {failure && (
          <Alert severity="error" role="alert">
            {failure}
          </Alert>
        )}
        <TextField label={t('wizard.payment.cardholderName')} autoComplete="cc-name" {...field('cardholderName')} />
        <TextField label={t('wizard.payment.cardNumber')} inputMode="numeric" autoComplete="cc-number" required {...field('cardNumber')} />
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: '1fr 1fr' }}>
          <TextField label={t('wizard.payment.expiry')} placeholder="MM/YY" autoComplete="cc-exp" required {...field('expiry')} />
          <TextField label={t('wizard.payment.cvc')} inputMode="numeric" autoComplete="cc-csc" required {...field('cvc')} />
        </Box>
        <Button type="submit" variant="contained" size="large" loading={paying}>
          {submitLabel ?? (purpose === 'pastDue' ? t('wizard.payment.payRenewal') : t('wizard.payment.pay'))}
        </Button>
      </Stack>
    </Box>
  );
}

