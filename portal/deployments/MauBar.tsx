import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { MauForecast } from '../../src/domain/usage/forecast';
import { formatCount } from '../../src/ui/servers/status';
import { MauForecastText } from './MauForecastText';

/** The bar's empty part: a neutral grey whatever the fill's colour. */
export const MAU_TRACK = 'grey.300';

/** This month's monthly active users against the tier's limit, as a bar (red from 90%), with the forecast when there is one. */
export function MauBar({ used, limit, forecast = null, compact = false }: { used: number; limit: number; forecast?: MauForecast | null; compact?: boolean }) {
  const { t } = useTranslation();
  const id = useId();
  const share = limit > 0 ? Math.min(100, (used / limit) * 100) : 0;
  const text = t('servers.mau', { used: formatCount(used), limit: formatCount(limit) });
  return (
    <Box sx={{ minWidth: compact ? 120 : 0, display: 'grid', gap: 0.25 }}>
      <LinearProgress
        variant="determinate"
        value={share}
        color={share >= 90 ? 'error' : share >= 75 ? 'warning' : 'primary'}
        aria-label={t('servers.mauLabel')}
        aria-describedby={id}
        // MUI's track is a pale tint of the bar's colour, so an empty bar read as full:
        // the track is neutral grey, the fill alone carries the colour.
        sx={{ height: 8, borderRadius: 4, bgcolor: MAU_TRACK, '& .MuiLinearProgress-bar': { borderRadius: 4 } }}
      />
      <Typography id={id} variant="caption" color="text.secondary" data-testid="mau-text">
        {text}
      </Typography>
      {forecast && !compact && <MauForecastText forecast={forecast} limit={limit} />}
    </Box>
  );
}
