import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

/** A spinner with a line saying what the page is waiting for (a link being checked). */
export function Waiting({ text }: { text: string }) {
  return (
    <Stack direction="row" spacing={2} role="status" sx={{ alignItems: 'center' }}>
      <CircularProgress size={24} aria-hidden />
      <Typography color="text.secondary">{text}</Typography>
    </Stack>
  );
}
