import TrendingUp from '@mui/icons-material/TrendingUp';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useCompanyUsage, useSetMauAlerts, type MauAlertSettings } from '../../dataProvider/usage';
import { MAU_ALERTS, PAST_TIER_RULE } from '../../src/domain/usage/mauRule';
import type { ServerUsage } from '../../src/domain/usage/schemas';
import { formatAmount } from '../../src/ui/format';
import { taxBreakdownText, taxedText, taxLabelText } from '../../src/ui/taxLabel';
import type { TaxedAmount } from '../../src/domain/billing/schemas';
import { QueryFailure } from '../../src/ui/QueryFailure';
import { useFormSubmit } from '../../src/ui/form/useFormSubmit';
import { formatCount, shortDate } from '../../src/ui/servers/status';
import { showToast } from '../../src/ui/toast/toastStore';
import { MauBar } from '../deployments/MauBar';
import { SettingsSection } from '../profile/SettingsSection';
import '../../src/serversI18n';

/** A bill's amounts keep their cents. */
const BILL = { cents: 'always' } as const;

function ServerForecast({ server: s, companyId }: { server: ServerUsage; companyId: string }) {
  const { t } = useTranslation();
  // Every amount says what it includes: the company's current country, from the next bill on.
  const price = (amount: TaxedAmount) => `${t(`management.billing.perCycle.${s.cycle}`, { amount: formatAmount(amount.gross, BILL) })} ${taxLabelText(amount.basis, t)}`;
  return (
    <Box component="li" data-testid="server-usage" sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr', md: 'minmax(0, 1fr) minmax(0, 1fr)' }, columnGap: 3, minWidth: 0 }}>
      <Box sx={{ minWidth: 0 }}>
        <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{s.name}</Typography>
        <Typography variant="body2" color="text.secondary">
          {s.plan.name}
        </Typography>
        <Typography variant="body2" data-testid="projected-bill">
          {s.nextBillAt ? t('management.billing.usage.nextBillOn', { amount: price(s.nextBill), date: shortDate.format(new Date(s.nextBillAt)) }) : t('management.billing.usage.nextBill', { amount: price(s.nextBill) })}
        </Typography>
      </Box>
      <Box sx={{ minWidth: 0, display: 'grid', gap: 1 }}>
        <MauBar used={s.used} limit={s.limit} forecast={s.forecast} />
        {!s.forecast && <Typography variant="caption" color="text.secondary">{t('management.billing.usage.noForecast')}</Typography>}
        {s.nextTier && (
          <Alert severity={s.overTier ? 'error' : 'warning'} role="status" icon={<TrendingUp />} data-testid="next-tier" sx={{ alignItems: 'center', '& .MuiAlert-message': { minWidth: 0 } }}>
            <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
              <span>{t('management.billing.usage.nextTier', { plan: s.nextTier.plan.name, mau: formatCount(s.nextTier.plan.mau), price: price(s.nextTier.total), dueNow: taxedText(s.nextTier.dueNow, t) })}</span>
              <Button component={RouterLink} to={`/c/${companyId}/p/${s.project}/server-builder/${s._id}/choose-plan?plan=${encodeURIComponent(s.nextTier.plan._id)}`} variant="contained" size="small">
                {t('management.billing.usage.upgrade', { plan: s.nextTier.plan.name })}
              </Button>
            </Stack>
          </Alert>
        )}
      </Box>
    </Box>
  );
}

function AlertSettings({ companyId, alerts }: { companyId: string; alerts: MauAlertSettings }) {
  const { t } = useTranslation();
  const save = useSetMauAlerts(companyId);
  const { run, submitting } = useFormSubmit({ report: 'toast' });
  const toggle = (kind: keyof MauAlertSettings, on: boolean) =>
    run(async () => {
      await save.mutateAsync({ ...alerts, [kind]: on });
      showToast({ text: t('management.billing.usage.alertsSaved'), variant: 'successful' });
    });
  return (
    <Box>
      <Typography sx={{ fontWeight: 600 }}>{t('management.billing.usage.alerts')}</Typography>
      <Typography variant="body2" color="text.secondary">
        {t('management.billing.usage.alertsIntro')}
      </Typography>
      <FormGroup>
        {MAU_ALERTS.map((kind) => (
          <FormControlLabel key={kind} control={<Switch checked={alerts[kind]} disabled={submitting} onChange={(e) => void toggle(kind, e.target.checked)} />} label={t(`management.billing.usage.alertKinds.${kind}`)} />
        ))}
      </FormGroup>
    </Box>
  );
}

/** Management › Billing: each server's MAU forecast, its projected bill and the next tier, and the alert settings. */
export function UsageForecast({ companyId }: { companyId: string }) {
  const { t } = useTranslation();
  const { data, error } = useCompanyUsage(companyId);
  return (
    <SettingsSection title={t('management.billing.usage.title')} intro={t('management.billing.usage.intro')}>
      {!data && <QueryFailure error={error} />}
      {!data && !error && <Typography color="text.secondary">{t('management.billing.usage.loading')}</Typography>}
      {data && (
        <Stack spacing={2.5}>
          {data.servers.length === 0 ? (
            <Typography color="text.secondary">{t('management.billing.usage.none')}</Typography>
          ) : (
            <Stack divider={<Divider flexItem />} spacing={2} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
              {data.servers.map((s) => (
                <ServerForecast key={s._id} server={s} companyId={companyId} />
              ))}
            </Stack>
          )}
          <Typography sx={{ fontWeight: 700 }} data-testid="projected-total">
            {t('management.billing.usage.total', { amount: taxedText(data.total, t) })}
            {taxBreakdownText(data.total, t) && ` ${t('management.billing.usage.totalParts', { parts: taxBreakdownText(data.total, t) })}`}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t(PAST_TIER_RULE.messageKey)}
          </Typography>
          <Divider />
          <AlertSettings companyId={companyId} alerts={data.alerts} />
        </Stack>
      )}
    </SettingsSection>
  );
}
