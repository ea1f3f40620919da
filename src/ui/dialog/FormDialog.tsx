import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog, { type DialogProps } from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import type { FormEvent, ReactNode } from 'react';

export interface FormDialogProps {
  title: string;
  /** Closes without saving (the cancel button, Escape, the backdrop). */
  onCancel: () => void;
  onSubmit: () => void;
  submitLabel: string;
  cancelLabel: string;
  submitting?: boolean;
  /** The failure no field took (`useFormSubmit`'s `failure`), shown above the fields. */
  failure?: string | null;
  maxWidth?: DialogProps['maxWidth'];
  children: ReactNode;
}

/** The one dialog with a form: title, the failure alert, the fields, cancel and submit. */
export function FormDialog({ title, onCancel, onSubmit, submitLabel, cancelLabel, submitting = false, failure = null, maxWidth = 'sm', children }: FormDialogProps) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <Dialog open onClose={onCancel} fullWidth maxWidth={maxWidth}>
      {/* A column like the paper's, so the content still scrolls between title and buttons. */}
      <Box component="form" noValidate onSubmit={submit} sx={{ display: 'flex', flexDirection: 'column', minHeight: 0, overflow: 'hidden' }}>
        <DialogTitle>{title}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {failure && (
              <Alert severity="error" role="alert">
                {failure}
              </Alert>
            )}
            {children}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onCancel}>{cancelLabel}</Button>
          <Button type="submit" variant="contained" loading={submitting}>
            {submitLabel}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
