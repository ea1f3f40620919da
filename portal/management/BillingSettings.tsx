import CreditCard from '@mui/icons-material/CreditCard';
import Payments from '@mui/icons-material/Payments';
import ReceiptLong from '@mui/icons-material/ReceiptLong';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip, { type ChipProps } from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { Fragment, useEffect, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../dataProvider/httpClient';
import { useCompanyBilling } from '../../dataProvider/orders/queries';
import { billingLinks } from '../../dataProvider/orders';
import { useSelection } from '../../src/companySelection';
import { subscriptionState, type BillingFacts } from '../../src/domain/billing/rules';
import { pendingOrderAgeDays } from '../../src/domain/orders/pendingOrders';
import type { SubscriptionStatus } from '../../src/domain/orders/schemas';
import type { CompanyBilling, TransactionDto } from '../../src/domain/payments/schemas';
import { session } from '../../src/session';
import { formatAmount } from '../../src/ui/format';
import { failureMessage } from '../../src/ui/form/messages';
import { billingText } from '../../src/ui/servers/billingText';
import { grossText, taxLabelText } from '../../src/ui/taxLabel';
import { countryOptions } from './countries';
import { showToast } from '../../src/ui/toast/toastStore';
import { SettingsSection } from '../profile/SettingsSection';
import '../../src/billingI18n';
import '../wizard/i18n';
import '../../src/managementI18n';
import { PaymentModal } from '../wizard/PaymentModal';
import { cardBrand, codeAsWords } from '../../src/ui/format';
import { UsageForecast } from './UsageForecast';
import { QuotesSection } from './Quotes';
import { UpdateCardDialog } from './UpdateCardDialog';

/** A bill's amounts keep their cents. */
const BILL = { cents: 'always' } as const;
const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
/** A date of the API (ISO) as the page shows it, e.g. 'Mar 4, 2026'. */
export const billingDay = (iso: string): string => day.format(new Date(iso));

const STATUS_COLORS: Record<SubscriptionStatus, ChipProps['color']> = { active: 'success', pending: 'info', past_due: 'warning', paused: 'default', canceled: 'default' };

/** An order never paid: its age and the day it is removed unless paid. */
function pendingOrderLine(order: { orderedAt: string; removedOn: string }, t: TFunction): string {
  const age = pendingOrderAgeDays(new Date(order.orderedAt), new Date());
  const date = billingDay(order.removedOn);
  return age === 0 ? t('management.billing.pendingOrderToday', { date }) : t('management.billing.pendingOrder', { count: age, date });
}

const facts = (s: CompanyBilling['subscriptions'][number]): BillingFacts => ({ free: s.free, status: s.status, deleted: s.deleted, deletingOn: s.deletingOn, nextBilledAt: s.nextBilledAt, scheduledChange: s.scheduledChange });

/** A country's English name, or "none" without one. */
function countryName(code: string | null, t: TFunction): string {
  return code ? (countryOptions().find((c) => c.code === code)?.name ?? code) : t('management.billing.noCountry');
}

/** The company's tax basis changed and some server has not been billed since: its next bill is the first on the new one. */
function TaxChangeNotice({ change }: { change: NonNullable<CompanyBilling['taxChange']> }) {
  const { t } = useTranslation();
  return (
    <Alert severity="info" data-testid="tax-change" sx={{ mb: 2 }}>
      {t('management.billing.taxChange', {
        date: billingDay(change.at),
        from: countryName(change.from.country, t),
        to: countryName(change.to.country, t),
        label: taxLabelText(change.to, t),
        before: taxLabelText(change.from, t),
      })}
    </Alert>
  );
}

function Subscriptions({ billing, onPay }: { billing: CompanyBilling; onPay: (deployment: { id: string; name: string }) => void }) {
  const { t } = useTranslation();
  return (
    <SettingsSection title={t('management.billing.subscriptions')} intro={t('management.billing.subscriptionsIntro')}>
      {billing.taxChange && <TaxChangeNotice change={billing.taxChange} />}
      {billing.subscriptions.length === 0 ? (
        <Typography color="text.secondary">{t('management.billing.noSubscriptions')}</Typography>
      ) : (
        <Stack divider={<Divider flexItem />} spacing={2} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {billing.subscriptions.map((s) => (
            <Box component="li" key={s._id} data-testid="subscription" sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5, minWidth: 0 }}>
              <Box sx={{ flex: '1 1 220px', minWidth: 0 }}>
                <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{s.deploymentName}</Typography>
                <Typography variant="body2" color="text.secondary">
                  {`${t(`management.billing.perCycle.${s.cycle}`, { amount: formatAmount(s.bill.gross, BILL) })} ${taxLabelText(s.bill.basis, t)}`}
                </Typography>
                <Typography variant="body2" color="text.secondary" data-testid="billing-line">
                  {billingText(facts(s), grossText(s.bill.gross, s.bill.basis, t), t)}
                </Typography>
                {s.pendingOrder && (
                  <Typography variant="body2" color="warning.dark" data-testid="pending-order">
                    {pendingOrderLine(s.pendingOrder, t)}
                  </Typography>
                )}
                {s.status === 'past_due' && s.pauseAfter && (
                  <Typography variant="body2" color="warning.dark">
                    {t('management.billing.pausesOn', { date: billingDay(s.pauseAfter) })}
                  </Typography>
                )}
              </Box>
              {/* Once billing stops the line above says so; the status ("Active") would contradict it. */}
              {subscriptionState(facts(s)).kind === 'status' && <Chip size="small" label={t(`management.billing.status.${s.status}`)} color={STATUS_COLORS[s.status]} variant={s.status === 'active' ? 'filled' : 'outlined'} />}
              {s.status === 'pending' && (
                <Button size="small" variant="contained" onClick={() => onPay({ id: s.deploymentId, name: s.deploymentName })}>
                  {t('management.billing.payNow')}
                </Button>
              )}
            </Box>
          ))}
        </Stack>
      )}
    </SettingsSection>
  );
}

/**
 * On a phone each transaction is a small card rather than a row wider than the screen (a table
 * that scrolls sideways hides the total and the documents): date and total, invoice number and
 * status, subtotal and tax (named by their column's header), then the documents. Cells are
 * placed by their order in the row, so the table's markup stays one for every width.
 */
function phoneRows(columns: Record<'subtotal' | 'tax', string>) {
  const areas = ['date', 'invoice', 'subtotal', 'tax', 'total', 'status', 'documents'];
  const label = (text: string) => ({ content: JSON.stringify(`${text} `), color: 'text.secondary' });
  return {
    '@media (max-width: 599.95px)': {
      display: 'block',
      '& thead': { display: 'none' },
      '& tbody': { display: 'block' },
      '& tbody tr': {
        display: 'grid',
        gridTemplateColumns: 'minmax(0, 1fr) auto',
        gridTemplateAreas: '"date total" "invoice status" "subtotal tax" "documents documents"',
        columnGap: 2,
        rowGap: 0.5,
        py: 1.5,
        borderBottom: 1,
        borderColor: 'divider',
      },
      '& tbody td': { display: 'block', border: 0, p: 0, textAlign: 'left' },
      ...Object.fromEntries(areas.map((area, i) => [`& tbody td:nth-of-type(${i + 1})`, { gridArea: area }])),
      '& tbody td:nth-of-type(2), & tbody td:nth-of-type(3), & tbody td:nth-of-type(4)': { color: 'text.secondary', fontSize: '0.8125rem' },
      '& tbody td:nth-of-type(3)::before': label(columns.subtotal),
      '& tbody td:nth-of-type(4)::before': label(columns.tax),
      '& tbody td:nth-of-type(4), & tbody td:nth-of-type(5), & tbody td:nth-of-type(6)': { textAlign: 'right', justifySelf: 'end' },
      '& tbody td:nth-of-type(7)': { mt: 0.5, ml: -0.75 },
    },
  } as const;
}

function Transactions({ companyId, transactions }: { companyId: string; transactions: TransactionDto[] }) {
  const { t } = useTranslation();
  const columns = t('management.billing.columns', { returnObjects: true }) as Record<'date' | 'invoice' | 'subtotal' | 'tax' | 'total' | 'status' | 'receipt', string>;
  return (
    <SettingsSection title={t('management.billing.transactions')}>
      {transactions.length === 0 ? (
        <Typography color="text.secondary">{t('management.billing.noTransactions')}</Typography>
      ) : (
        // A phone shows each row as a card (phoneRows); a narrow tablet scrolls the table inside its own box, never the page.
        <TableContainer sx={{ overflowX: 'auto', maxWidth: '100%', position: 'relative' }} tabIndex={0} aria-label={t('management.billing.transactions')}>
          <Table size="small" sx={{ minWidth: { sm: 640 }, ...phoneRows(columns) }}>
            <TableHead>
              <TableRow>
                <TableCell>{columns.date}</TableCell>
                <TableCell>{columns.invoice}</TableCell>
                <TableCell align="right">{columns.subtotal}</TableCell>
                <TableCell align="right">{columns.tax}</TableCell>
                <TableCell align="right">{columns.total}</TableCell>
                <TableCell>{columns.status}</TableCell>
                <TableCell>{columns.receipt}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {transactions.map((tx) => (
                <TableRow key={tx._id} data-testid="transaction">
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{billingDay(tx.billedAt)}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{tx.invoiceNumber ?? '—'}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {formatAmount(tx.subtotal, BILL)}
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {formatAmount(tx.tax, BILL)}
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap', fontWeight: 600 }}>
                    {formatAmount(tx.total, BILL)}
                  </TableCell>
                  <TableCell>{t(`management.billing.txStatus.${tx.status}`, { defaultValue: codeAsWords(tx.status) })}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    <Button
                      size="small"
                      startIcon={<ReceiptLong />}
                      href={billingLinks.invoiceUrl(companyId, tx._id)}
                      target="_blank"
                      rel="noopener"
                      aria-label={t('management.billing.invoiceFor', { invoice: tx.invoiceNumber ?? tx._id })}
                    >
                      {t('management.billing.invoice')}
                    </Button>
                    <Button
                      size="small"
                      startIcon={<Payments />}
                      href={billingLinks.receiptUrl(companyId, tx._id)}
                      target="_blank"
                      rel="noopener"
                      aria-label={t('management.billing.receiptFor', { invoice: tx.invoiceNumber ?? tx._id })}
                    >
                      {t('management.billing.receipt')}
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </SettingsSection>
  );
}

function CardOnFile({ card, onUpdate }: { card: CompanyBilling['card']; onUpdate: () => void }) {
  const { t } = useTranslation();
  return (
    <SettingsSection title={t('management.billing.card')}>
      {card ? (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
          <CreditCard color="action" aria-hidden />
          <Box>
            <Typography>{t('management.billing.cardDetails', { brand: cardBrand(card.brand), last4: card.last4 })}</Typography>
            <Typography variant="body2" color="text.secondary">
              {t('management.billing.cardExpiry', { month: String(card.expiryMonth).padStart(2, '0'), year: card.expiryYear })}
            </Typography>
          </Box>
        </Box>
      ) : (
        <Typography color="text.secondary">{t('management.billing.noCard')}</Typography>
      )}
      <Box sx={{ mt: 2 }}>
        <Button size="small" variant="outlined" startIcon={<CreditCard />} onClick={onUpdate} data-testid="update-card" aria-label={t('management.billing.updateCardTitle')}>
          {t('management.billing.updateCard')}
        </Button>
      </Box>
    </SettingsSection>
  );
}

/** Management › Billing (SPEC §2): the company's subscriptions, transactions and card (admins only). */
export function BillingSettings() {
  const { t } = useTranslation();
  const { companyId, projectId } = useSelection();
  const dashboardPath = companyId && projectId ? `/c/${companyId}/p/${projectId}/dashboard` : '/dashboard';
  const { data, error, refetch } = useCompanyBilling(companyId);
  const [paying, setPaying] = useState<{ id: string; name: string } | null>(null);
  const [updatingCard, setUpdatingCard] = useState(false);

  useEffect(() => {
    if (error) session.handleError(error);
  }, [error]);

  if (!companyId) return null;
  if (!data && error) {
    // Viewers get the server's 403 message as it is: billing is for the company's admins.
    const forbidden = error instanceof ApiError && error.status === 403;
    return (
      <Alert
        severity={forbidden ? 'info' : 'error'}
        role="alert"
        action={
          forbidden ? undefined : (
            <Button color="inherit" size="small" onClick={() => void refetch()}>
              {t('management.retry')}
            </Button>
          )
        }
      >
        {failureMessage(error, t)}
      </Alert>
    );
  }
  if (!data) {
    return (
      <Box role="status" sx={{ display: 'flex', alignItems: 'center', justifyContent: 'center', gap: 2, py: 8 }}>
        <CircularProgress size={24} aria-hidden />
        <Typography color="text.secondary">{t('management.billing.loading')}</Typography>
      </Box>
    );
  }
  const pastDue = data.subscriptions.find((s) => s.status === 'past_due');
  return (
    <Fragment>
      <Stack spacing={3} sx={{ minWidth: 0 }}>
        {data.pastDue.count > 0 && (
          <Alert
            severity="warning"
            role="alert"
            action={
              pastDue && (
                <Button color="inherit" size="small" onClick={() => setPaying({ id: pastDue.deploymentId, name: pastDue.deploymentName })}>
                  {t('management.billing.updateCard')}
                </Button>
              )
            }
          >
            {t('management.billing.pastDue', { count: data.pastDue.count, since: data.pastDue.since ? billingDay(data.pastDue.since) : '—', date: data.pastDue.pauseAfter ? billingDay(data.pastDue.pauseAfter) : '—' })}
          </Alert>
        )}
        <UsageForecast companyId={companyId} />
        <Subscriptions billing={data} onPay={setPaying} />
        <Transactions companyId={companyId} transactions={data.transactions} />
        <QuotesSection companyId={companyId} />
        <CardOnFile card={data.card} onUpdate={() => setUpdatingCard(true)} />
      </Stack>
      {updatingCard && (
        <UpdateCardDialog
          companyId={companyId}
          onClose={() => setUpdatingCard(false)}
          onUpdated={() => {
            setUpdatingCard(false);
            showToast({ text: t('management.billing.cardSaved'), variant: 'successful' });
            void refetch();
          }}
        />
      )}
      {paying && <PaymentModal deployment={paying} dashboardPath={dashboardPath} onClose={() => setPaying(null)} onPaid={() => void refetch()} />}
    </Fragment>
  );
}
