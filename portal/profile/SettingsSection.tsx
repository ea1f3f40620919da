import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useId, type ReactNode } from 'react';

interface Props {
  title: string;
  intro?: ReactNode;
  /** Shown beside the title, e.g. an on/off chip. */
  aside?: ReactNode;
  /** Red outline for actions that cannot be undone. */
  danger?: boolean;
  children: ReactNode;
}

/** One card of a profile page: a titled section, labelled by its heading for screen readers. */
export function SettingsSection({ title, intro, aside, danger = false, children }: Props) {
  const headingId = useId();
  return (
    <Paper component="section" aria-labelledby={headingId} variant="outlined" sx={{ p: { xs: 2, sm: 3 }, borderColor: danger ? 'error.light' : undefined }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap', mb: intro ? 0.5 : 2 }}>
        <Typography variant="h2" id={headingId} sx={{ fontSize: '1.25rem', color: danger ? 'error.main' : undefined }}>
          {title}
        </Typography>
        {aside}
      </Box>
      {intro && (
        <Typography color="text.secondary" sx={{ mb: 2.5, maxWidth: 640 }}>
          {intro}
        </Typography>
      )}
      {children}
    </Paper>
  );
}
