import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import { Bar, BarChart, CartesianGrid, ReferenceArea, ReferenceDot, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { MauHistoryEntry } from '../../../src/domain/deployments/schemas';
import { forecastHasData, type MauForecast } from '../../../src/domain/usage/forecast';
import { formatCount } from '../../../src/ui/servers/status';

const month = new Intl.DateTimeFormat('en-US', { month: 'short', year: '2-digit', timeZone: 'UTC' });
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

/**
 * The MAU history as bars against the tier limit (a line), and this month's forecast as a band
 * from low to high over its bar with the forecast as a dot (a band shows on a single month too).
 * Loaded on demand with recharts, so neither enters the front door nor the main app's first load.
 */
export default function MauHistoryChart({ history, limit, forecast: given = null }: { history: MauHistoryEntry[]; limit: number; forecast?: MauForecast | null }) {
  const { t } = useTranslation();
  // A forecast of all zeros (nothing counted yet) is no forecast to draw.
  const forecast = given && forecastHasData(given) ? given : null;
  const theme = useTheme();
  const data = history.map((h) => ({ month: month.format(new Date(h.startsAt)), used: h.used }));
  const current = forecast ? data.at(-1) : undefined;
  const top = Math.max(limit, forecast?.high ?? 0, ...data.map((d) => d.used)) * 1.1;
  return (
    <Box role="img" aria-label={forecast ? t('deployment.mau.chartLabelForecast', { limit: formatCount(limit), forecast: formatCount(forecast.forecast), low: formatCount(forecast.low), high: formatCount(forecast.high) }) : t('deployment.mau.chartLabel', { limit: formatCount(limit) })} data-testid="mau-chart" sx={{ width: '100%', height: 240 }}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 16, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="month" tickLine={false} fontSize={12} />
          <YAxis width={44} tickFormatter={(v: number) => compact.format(v)} domain={[0, Math.ceil(top)]} fontSize={12} />
          <Tooltip formatter={(v) => [formatCount(Number(v)), t('deployment.mau.used')]} />
          <ReferenceLine y={limit} stroke={theme.palette.error.main} strokeDasharray="6 3" label={{ value: `${t('deployment.mau.limit')} ${compact.format(limit)}`, position: 'insideTopRight', fontSize: 12, fill: theme.palette.error.main }} />
          <Bar dataKey="used" name={t('deployment.mau.used')} fill={theme.palette.primary.main} radius={[4, 4, 0, 0]} maxBarSize={48} />
          {forecast && current && (
            <ReferenceArea x1={current.month} x2={current.month} y1={forecast.low} y2={forecast.high} fill={theme.palette.warning.main} fillOpacity={0.3} stroke={theme.palette.warning.dark} strokeDasharray="3 3" ifOverflow="extendDomain" />
          )}
          {forecast && current && (
            <ReferenceDot x={current.month} y={forecast.forecast} r={5} fill={theme.palette.warning.dark} stroke="none" label={{ value: `${t('deployment.mau.forecast')} ${compact.format(forecast.forecast)}`, position: 'left', fontSize: 12, fill: theme.palette.text.primary }} />
          )}
        </BarChart>
      </ResponsiveContainer>
    </Box>
  );
}
