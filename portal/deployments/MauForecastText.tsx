import Alert from '@mui/material/Alert';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { forecastHasData, TREND_DAYS, type MauForecast } from '../../src/domain/usage/forecast';
import { mauAlertConditions, mauSharePercent, mauShareReached } from '../../src/domain/usage/mauRule';
import { formatCount, shortDate } from '../../src/ui/servers/status';

const day = (iso: string) => shortDate.format(new Date(`${iso}T12:00:00Z`));

/** The forecast in words: where the month is heading, when the tier runs out, and from what. */
export function MauForecastText({ forecast: f, limit }: { forecast: MauForecast; limit: number }) {
  const { t } = useTranslation();
  // Nothing counted yet: "Forecast 0 (between 0 and 0)" would say nothing.
  if (!forecastHasData(f)) {
    return (
      <Typography variant="body2" color="text.secondary" data-testid="mau-forecast">
        {t('servers.forecast.noData')}
      </Typography>
    );
  }
  return (
    <>
      <Typography variant="body2" data-testid="mau-forecast">
        {t('servers.forecast.line', { forecast: formatCount(f.forecast), low: formatCount(f.low), high: formatCount(f.high), end: day(f.periodEnd) })}
      </Typography>
      {f.runOutOn && limit > 0 && (
        <Typography variant="body2" color={f.used >= limit ? 'error.main' : 'warning.main'} sx={{ fontWeight: 600 }} data-testid="mau-run-out">
          {t(f.used >= limit ? 'servers.forecast.reached' : 'servers.forecast.runOut', { limit: formatCount(limit), date: day(f.runOutOn) })}
        </Typography>
      )}
      <Typography variant="caption" color="text.secondary">
        {t(`servers.forecast.basis.${f.basis}`, { count: Math.min(f.days, TREND_DAYS), periods: f.periods })}
      </Typography>
    </>
  );
}

/** The in-app notice of the same alert rule the mails follow (the past-tier rule is shown beside it where the customer decides). */
export function MauNotice({ used, limit, forecast }: { used: number; limit: number; forecast: MauForecast | null }) {
  const { t } = useTranslation();
  const conditions = mauAlertConditions(used, limit, forecast);
  if (conditions.length === 0) return null;
  const share = mauShareReached(used, limit);
  return (
    <Alert severity={share >= 100 ? 'error' : 'warning'} role="status" data-testid="mau-notice" sx={{ py: 0 }}>
      {share > 0 ? t('servers.forecast.noticeShare', { share: mauSharePercent(used, limit) }) : t('servers.forecast.noticeRunOut')}
    </Alert>
  );
}
