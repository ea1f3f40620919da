import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useId, type ReactNode } from 'react';

/** One titled panel of the server's page. */
export function Section({ title, children, testId, action }: { title: string; children: ReactNode; testId?: string; action?: ReactNode }) {
  const id = useId();
  return (
    <Paper variant="outlined" component="section" aria-labelledby={id} data-testid={testId} sx={{ p: { xs: 2, sm: 2.5 }, minWidth: 0, display: 'grid', gap: 1.5, alignContent: 'start' }}>
      <Typography id={id} variant="h2" sx={{ fontSize: '1.125rem', display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap' }}>
        {title}
        {action}
      </Typography>
      {children}
    </Paper>
  );
}
