import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { abbreviateNumber } from '../format';
import { visuallyHidden } from '../form/visuallyHidden';

// A sum of event values (54.97, say) keeps its cents; counts are whole and read the same.
const exactNumber = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** SPEC §9: metric cards abbreviate with K and M from this value on. */
export const METRIC_ABBREVIATE_FROM = 10_000;

export function formatMetric(value: number): string {
  return Math.abs(value) >= METRIC_ABBREVIATE_FROM ? abbreviateNumber(value) : exactNumber.format(value);
}

export interface MetricCardProps {
  /** Already translated. */
  label: string;
  value: number;
  /** A line under the number, e.g. the period. */
  description?: ReactNode;
}

/** A labelled number; the exact value stays available as a tooltip and to screen readers. */
export function MetricCard({ label, value, description }: MetricCardProps) {
  const short = formatMetric(value);
  const exact = exactNumber.format(value);
  return (
    <Paper variant="outlined" component="section" aria-label={label} sx={{ p: 2, minWidth: 160 }}>
      <Typography variant="body2" color="text.secondary" component="h3" sx={{ fontWeight: 600 }}>
        {label}
      </Typography>
      <Typography component="p" title={short === exact ? undefined : exact} sx={{ fontSize: '1.75rem', fontWeight: 700, lineHeight: 1.3 }}>
        {short === exact ? (
          short
        ) : (
          <>
            <span aria-hidden="true">{short}</span>
            <Box component="span" sx={visuallyHidden}>
              {exact}
            </Box>
          </>
        )}
      </Typography>
      {description && (
        <Typography variant="body2" color="text.secondary">
          {description}
        </Typography>
      )}
    </Paper>
  );
}
