import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { closeDialog, useDialogs, type DialogType } from './dialogStore';

const CONFIRM_COLOR: Record<DialogType, 'success' | 'error' | 'primary'> = {
  success: 'success',
  danger: 'error',
  secondary: 'primary',
};

/** Shows the queued dialogs one at a time; mount once near the root. */
export function DialogHost() {
  const { t } = useTranslation();
  const id = useId();
  const dialog = useDialogs()[0];
  if (!dialog) return null;
  const confirming = dialog.intent === 'confirm';
  // A dangerous action starts on Cancel, so Enter never deletes by accident.
  const focusCancel = confirming && dialog.type === 'danger';
  return (
    <Dialog
      key={dialog.id}
      open
      onClose={() => closeDialog(dialog.id, false)}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-message`}
      role={confirming ? 'alertdialog' : 'dialog'}
      maxWidth="xs"
      fullWidth
    >
      <DialogTitle id={`${id}-title`}>{dialog.title}</DialogTitle>
      <DialogContent>
        <DialogContentText id={`${id}-message`}>{dialog.message}</DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        {confirming && (
          <Button onClick={() => closeDialog(dialog.id, false)} autoFocus={focusCancel} color="inherit">
            {dialog.labels.cancel ?? t('widgets.dialog.cancel')}
          </Button>
        )}
        <Button variant="contained" color={CONFIRM_COLOR[dialog.type]} onClick={() => closeDialog(dialog.id, true)} autoFocus={!focusCancel}>
          {dialog.labels.confirm ?? (confirming ? t('widgets.dialog.confirm') : t('widgets.dialog.ok'))}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
