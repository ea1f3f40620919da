import Description from '@mui/icons-material/Description';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip, { type ChipProps } from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { quoteLinks } from '../../dataProvider/quotes';
import { useDecideQuote, useQuote, useQuotes } from '../../dataProvider/quotes/queries';
import { quotePagePath, type QuoteDto, type QuoteState } from '../../src/domain/billing/quotes';
import { FormDialog } from '../../src/ui/dialog/FormDialog';
import { formatAmount } from '../../src/ui/format';
import { QueryFailure } from '../../src/ui/QueryFailure';
import { useFormSubmit } from '../../src/ui/form/useFormSubmit';
import { showToast } from '../../src/ui/toast/toastStore';
import { SettingsSection } from '../profile/SettingsSection';
import { PAYMENT_SERVER_PARAM, STEP_PATHS } from '../wizard/steps';
import { billingDay } from './BillingSettings';
import '../../src/billingI18n';

const BILL = { cents: 'always' } as const;
const STATE_COLOR: Record<QuoteState, ChipProps['color']> = { open: 'info', approved: 'success', declined: 'default', expired: 'warning' };

function StateChip({ state }: { state: QuoteState }) {
  const { t } = useTranslation();
  return <Chip size="small" color={STATE_COLOR[state]} variant={state === 'open' ? 'filled' : 'outlined'} label={t(`management.billing.quotes.states.${state}`)} />;
}

const perCycle = (q: QuoteDto, t: (key: string, values?: Record<string, unknown>) => string) => t(`management.billing.perCycle.${q.document.cycle}`, { amount: formatAmount(q.document.total, BILL) });

/** Billing › Quotes: the company's quotes with their state, each opening its page. */
export function QuotesSection({ companyId }: { companyId: string }) {
  const { t } = useTranslation();
  const { data, error } = useQuotes(companyId);
  return (
    <SettingsSection title={t('management.billing.quotes.title')} intro={t('management.billing.quotes.intro')}>
      {error ? (
        <QueryFailure error={error} />
      ) : !data ? (
        <CircularProgress size={20} aria-label={t('management.billing.loading')} />
      ) : data.length === 0 ? (
        <Typography color="text.secondary">{t('management.billing.quotes.none')}</Typography>
      ) : (
        <Stack divider={<Box sx={{ borderTop: 1, borderColor: 'divider' }} />} spacing={1.5}>
          {data.map((q) => (
            <Box key={q._id} data-testid="quote" sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5, justifyContent: 'space-between' }}>
              <Box sx={{ minWidth: 0 }}>
                <Link component={RouterLink} to={quotePagePath(q._id)} sx={{ fontWeight: 600 }}>
                  {t('management.billing.quotes.line', { number: q.number, server: q.document.server.name })}
                </Link>
                <Typography variant="body2" color="text.secondary">
                  {t('management.billing.quotes.meta', { amount: perCycle(q, t), who: q.document.preparedBy.name || q.document.preparedBy.email, date: billingDay(q.createdAt) })}
                </Typography>
              </Box>
              <StateChip state={q.state} />
            </Box>
          ))}
        </Stack>
      )}
    </SettingsSection>
  );
}

function DeclineDialog({ quote, onClose }: { quote: QuoteDto; onClose: () => void }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const { decline } = useDecideQuote(quote._id, quote.companyId);
  const { run, failure, submitting } = useFormSubmit();
  const empty = reason.trim().length === 0;
  return (
    <FormDialog
      title={t('management.billing.quotes.declineTitle', { number: quote.number })}
      submitLabel={t('management.billing.quotes.decline')}
      cancelLabel={t('management.billing.quotes.cancel')}
      submitting={submitting}
      failure={failure}
      onCancel={onClose}
      onSubmit={() => {
        if (empty) return;
        void run(async () => {
          await decline.mutateAsync(reason.trim());
          showToast({ text: t('management.billing.quotes.declined', { number: quote.number }), variant: 'successful' });
          onClose();
        });
      }}
    >
      <TextField
        label={t('management.billing.quotes.reason')}
        helperText={t('management.billing.quotes.reasonHelp')}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        multiline
        minRows={3}
        required
        fullWidth
        slotProps={{ htmlInput: { maxLength: 500 } }}
        autoFocus
      />
    </FormDialog>
  );
}

/** What the quote says: server, lines, tax and total, as its document prints them. */
function QuoteSummary({ quote }: { quote: QuoteDto }) {
  const { t } = useTranslation();
  const doc = quote.document;
  const taxLabel = doc.reverseCharge
    ? t('management.billing.quotes.reverseCharge')
    : doc.taxRate > 0 && doc.taxCountry
      ? t('management.billing.quotes.taxOf', { rate: doc.taxRate, country: doc.taxCountry })
      : t('management.billing.quotes.taxNone');
  const row = (label: string, amount: string, strong = false) => (
    <TableRow>
      <TableCell sx={{ pl: 0, fontWeight: strong ? 700 : undefined }}>{label}</TableCell>
      <TableCell align="right" sx={{ pr: 0, whiteSpace: 'nowrap', fontWeight: strong ? 700 : undefined }}>
        {amount}
      </TableCell>
    </TableRow>
  );
  return (
    <Table size="small" aria-label={t('management.billing.quotes.lines')}>
      <TableBody>
        {doc.lines.map((l, i) => (
          <TableRow key={`${l.name}-${i}`}>
            <TableCell sx={{ pl: 0 }}>{l.name}</TableCell>
            <TableCell align="right" sx={{ pr: 0, whiteSpace: 'nowrap' }}>
              {formatAmount(l.amount, BILL)}
            </TableCell>
          </TableRow>
        ))}
        {row(t('management.billing.quotes.subtotal'), formatAmount(doc.subtotal, BILL))}
        {Number(doc.discount) > 0 && row(t('management.billing.quotes.discount'), `-${formatAmount(doc.discount, BILL)}`)}
        {row(taxLabel, formatAmount(doc.tax, BILL))}
        {row(t('management.billing.quotes.total', { cycle: t(`management.billing.quotes.cycles.${doc.cycle}`) }), formatAmount(doc.total, BILL), true)}
      </TableBody>
    </Table>
  );
}

/**
 * A quote for the company's billing people (Billing › Quotes › one): read only, with "Approve and
 * pay" (the order is placed at the quoted price and its payment opens) or "Decline" with a reason.
 */
export function QuotePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { quoteId } = useParams();
  const { data: quote, error } = useQuote(quoteId);
  const { approve } = useDecideQuote(quoteId ?? '', quote?.companyId);
  const { run, failure, submitting } = useFormSubmit();
  const [declining, setDeclining] = useState(false);
  const toPayment = (deploymentId: string) => navigate(`/server-builder/${STEP_PATHS.paymentDetails}?${PAYMENT_SERVER_PARAM}=${encodeURIComponent(deploymentId)}`);

  if (error) return <QueryFailure error={error} retry={{ label: t('management.billing.quotes.back'), onClick: () => navigate('/management/billing') }} />;
  if (!quote) {
    return (
      <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 2, py: 8, justifyContent: 'center' }}>
        <CircularProgress size={24} aria-hidden />
        <Typography color="text.secondary">{t('management.billing.loading')}</Typography>
      </Box>
    );
  }
  const doc = quote.document;
  const payable = quote.state === 'open' || (quote.state === 'approved' && !quote.paid && quote.deploymentId);
  return (
    <Stack spacing={2.5} sx={{ minWidth: 0 }}>
      <Box>
        <Link component={RouterLink} to="/management/billing" variant="body2">
          {t('management.billing.quotes.back')}
        </Link>
      </Box>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
          <Typography variant="h2" component="h2" sx={{ fontSize: { xs: 22, sm: 26 } }}>
            {t('management.billing.quotes.heading', { number: quote.number })}
          </Typography>
          <StateChip state={quote.state} />
        </Box>
        <Typography sx={{ fontWeight: 600 }}>{t('management.billing.quotes.server', { name: doc.server.name, plan: doc.server.plan })}</Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('management.billing.quotes.prepared', { who: doc.preparedBy.name || doc.preparedBy.email, date: billingDay(doc.issuedAt), until: billingDay(doc.expiresAt) })}
        </Typography>
        <QuoteSummary quote={quote} />
        {doc.yearlySaving && (
          <Typography variant="body2" color="success.main" sx={{ mt: 1.5 }}>
            {t('management.billing.quotes.yearlySaving', { amount: formatAmount(doc.yearlySaving, BILL) })}
          </Typography>
        )}
        <Box sx={{ mt: 2.5 }}>
          {quote.state === 'open' && <Alert severity="info">{t('management.billing.quotes.openNote', { until: billingDay(doc.expiresAt) })}</Alert>}
          {quote.state === 'approved' && <Alert severity={quote.paid ? 'success' : 'info'}>{t(quote.paid ? 'management.billing.quotes.paidNote' : 'management.billing.quotes.approvedNote')}</Alert>}
          {quote.state === 'declined' && <Alert severity="warning">{t('management.billing.quotes.declinedNote', { reason: quote.declineReason ?? '' })}</Alert>}
          {quote.state === 'expired' && <Alert severity="warning">{t('management.billing.quotes.expiredNote')}</Alert>}
          {failure && (
            <Alert severity="error" role="alert" sx={{ mt: 1.5 }}>
              {failure}
            </Alert>
          )}
        </Box>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, mt: 2.5 }}>
          {payable && (
            <Button
              variant="contained"
              disabled={submitting}
              onClick={() =>
                void run(async () => {
                  const answer = quote.state === 'open' ? await approve.mutateAsync() : { deploymentId: quote.deploymentId ?? '' };
                  toPayment(answer.deploymentId);
                })
              }
            >
              {quote.state === 'open' ? t('management.billing.quotes.approve') : t('management.billing.quotes.pay')}
            </Button>
          )}
          {quote.state === 'open' && (
            <Button variant="outlined" color="inherit" onClick={() => setDeclining(true)} disabled={submitting}>
              {t('management.billing.quotes.decline')}
            </Button>
          )}
          <Button startIcon={<Description />} href={quoteLinks.documentUrl(quote._id)} target="_blank" rel="noopener">
            {t('management.billing.quotes.document')}
          </Button>
        </Box>
      </Paper>
      {declining && <DeclineDialog quote={quote} onClose={() => setDeclining(false)} />}
    </Stack>
  );
}
