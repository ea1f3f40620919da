import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

export interface ChartPoint {
  day: string;
  value: number;
}

/** The event trend line (recharts); loaded lazily with its page so the chart library stays out of other chunks. */
export default function EventChart({ points, label }: { points: ChartPoint[]; label: string }) {
  const theme = useTheme();
  return (
    <Box role="img" aria-label={label} sx={{ width: '100%', height: 260 }}>
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={points} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke={theme.palette.divider} />
          <XAxis dataKey="day" tick={{ fontSize: 12 }} minTickGap={24} />
          <YAxis allowDecimals={false} tick={{ fontSize: 12 }} width={48} />
          <Tooltip />
          <Line type="monotone" dataKey="value" name={label} stroke={theme.palette.primary.main} strokeWidth={2} dot={false} isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
    </Box>
  );
}
