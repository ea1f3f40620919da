import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ordersApi } from '../../dataProvider/orders';
import type { CardSummary } from '../../src/domain/payments/schemas';
import { useFormSubmit } from '../../src/ui/form/useFormSubmit';
import { cardBrand } from '../../src/ui/format';
import './i18n';

export interface CheckoutProps {
  deploymentId: string;
  purpose: 'order' | 'pastDue';
  /** The company's card on file: offered first, beside a new card. */
  cardOnFile?: CardSummary | null;
  onCompleted: () => void;
}

type CardBody = { cardNumber: string; expiry: string; cvc: string; cardholderName?: string };

/** The stand-in's card form: the order's payment (with the card on file or a new card), or (submit given) a new card on file. */
export function CardForm({ deploymentId, purpose, cardOnFile = null, onCompleted, submit, submitLabel }: Partial<Omit<CheckoutProps, 'onCompleted'>> & { onCompleted: () => void; submit?: (card: CardBody) => Promise<unknown>; submitLabel?: string }) {
  const { t } = useTranslation();
  const [card, setCard] = useState({ cardNumber: '', expiry: '', cvc: '', cardholderName: '' });
  // A payment offers the card on file first; "Update card" (submit given) is always a new card.
  const offered = submit ? null : cardOnFile;
  const [useOnFile, setUseOnFile] = useState(offered !== null);
  // A declined card says why and leaves the form for another try.
  const { run, failure, submitting: paying } = useFormSubmit();
  const field = (name: keyof typeof card) => ({ value: card[name], onChange: (e: { target: { value: string } }) => setCard((c) => ({ ...c, [name]: e.target.value })) });
  const onFile = offered !== null && useOnFile;

  const pay = async (e: FormEvent) => {
    e.preventDefault();
    const body = { ...card, cardholderName: card.cardholderName || undefined };
    const paid = await run(async () => {
      if (onFile) await ordersApi.payWithCardOnFile(deploymentId ?? '');
      else await (submit ? submit(body) : ordersApi.payStandIn(deploymentId ?? '', body));
    });
    if (paid) onCompleted();
  };

  const label = submitLabel ?? (purpose === 'pastDue' ? t(onFile ? 'wizard.payment.payOnFileRenewal' : 'wizard.payment.payRenewal') : t('wizard.payment.pay'));
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
        {offered && (
          <RadioGroup aria-label={t('wizard.payment.howToPay')} value={onFile ? 'onFile' : 'new'} onChange={(e) => setUseOnFile(e.target.value === 'onFile')}>
            <FormControlLabel value="onFile" control={<Radio />} label={t('wizard.payment.payWithCardOnFile', { brand: cardBrand(offered.brand), last4: offered.last4 })} />
            <FormControlLabel value="new" control={<Radio />} label={t('wizard.payment.newCard')} />
          </RadioGroup>
        )}
        {!onFile && (
          <>
            <TextField label={t('wizard.payment.cardholderName')} autoComplete="cc-name" {...field('cardholderName')} />
            <TextField label={t('wizard.payment.cardNumber')} inputMode="numeric" autoComplete="cc-number" required {...field('cardNumber')} />
            <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: '1fr 1fr' }}>
              <TextField label={t('wizard.payment.expiry')} placeholder="MM/YY" autoComplete="cc-exp" required {...field('expiry')} />
              <TextField label={t('wizard.payment.cvc')} inputMode="numeric" autoComplete="cc-csc" required {...field('cvc')} />
            </Box>
          </>
        )}
        <Button type="submit" variant="contained" size="large" loading={paying}>
          {label}
        </Button>
      </Stack>
    </Box>
  );
}
