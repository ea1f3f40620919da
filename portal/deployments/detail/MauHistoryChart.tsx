import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import { Area, Bar, CartesianGrid, ComposedChart, Line, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { MauHistoryEntry } from '../../../src/domain/deployments';
import type { MauForecast } from '../../../src/domain/mauForecast';
import { formatCount } from '../../../src/ui/servers/status';

const month = new Intl.DateTimeFormat('en-US', { month: 'short', year: '2-digit', timeZone: 'UTC' });
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

interface Point {
  month: string;
  used: number;
  forecast?: number;
  band?: [number, number];
}

/**
 * The MAU history as bars against the tier limit (a line), and this month's forecast as a band
 * (low to high) with its middle as a dashed line, fanning out from last month's count. Loaded on
 * demand with recharts, so neither enters the front door nor the main app's first load.
 */
export default function MauHistoryChart({ history, limit, forecast = null }: { history: MauHistoryEntry[]; limit: number; forecast?: MauForecast | null }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const data: Point[] = history.map((h) => ({ month: month.format(new Date(h.startsAt)), used: h.used }));
  const current = data.at(-1);
  if (forecast && current) {
    current.forecast = forecast.forecast;
    current.band = [forecast.low, forecast.high];
    const before = data.at(-2);
    if (before) Object.assign(before, { forecast: before.used, band: [before.used, before.used] });
  }
  const top = Math.max(limit, ...data.map((d) => Math.max(d.used, d.band?.[1] ?? 0))) * 1.1;
  return (
    <Box role="img" aria-label={t('deployment.mau.chartLabel', { limit: formatCount(limit) })} data-testid="mau-chart" sx={{ width: '100%', height: 240 }}>
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={data} margin={{ top: 16, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="month" tickLine={false} fontSize={12} />
          <YAxis width={44} tickFormatter={(v: number) => compact.format(v)} domain={[0, Math.ceil(top)]} fontSize={12} />
          <Tooltip formatter={(v, name) => [Array.isArray(v) ? v.map((x) => formatCount(Number(x))).join(' – ') : formatCount(Number(v)), name]} />
          <ReferenceLine y={limit} stroke={theme.palette.error.main} strokeDasharray="6 3" label={{ value: `${t('deployment.mau.limit')} ${compact.format(limit)}`, position: 'insideTopRight', fontSize: 12, fill: theme.palette.error.main }} />
          <Bar dataKey="used" name={t('deployment.mau.used')} fill={theme.palette.primary.main} radius={[4, 4, 0, 0]} maxBarSize={48} />
          {forecast && <Area dataKey="band" name={t('deployment.mau.range')} stroke="none" fill={theme.palette.warning.main} fillOpacity={0.25} isAnimationActive={false} connectNulls />}
          {forecast && <Line dataKey="forecast" name={t('deployment.mau.forecast')} stroke={theme.palette.warning.dark} strokeDasharray="4 3" dot={{ r: 3 }} isAnimationActive={false} connectNulls />}
        </ComposedChart>
      </ResponsiveContainer>
    </Box>
  );
}
