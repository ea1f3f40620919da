import Box from '@mui/material/Box';
import Button from '@mui/material/Button';

/** A settings form's buttons: submit, then a quiet cancel. */
export function SubmitOrCancel({ submitLabel, cancelLabel, submitting, onCancel }: { submitLabel: string; cancelLabel: string; submitting: boolean; onCancel: () => void }) {
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
      <Button type="submit" variant="contained" loading={submitting}>
        {submitLabel}
      </Button>
      <Button color="inherit" onClick={onCancel}>
        {cancelLabel}
      </Button>
    </Box>
  );
}
