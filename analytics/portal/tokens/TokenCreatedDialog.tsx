import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';

/** The new token, shown this once (it is stored hashed). */
export function TokenCreatedDialog({ token, onClose }: { token: string; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{t('analytics.tokens.createdTitle')}</DialogTitle>
      <DialogContent>
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t('analytics.tokens.createdBody')}
        </Alert>
        <TextField fullWidth label={t('analytics.tokens.tokenField')} value={token} slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'new-token', style: { fontFamily: 'monospace' } } }} onFocus={(e) => e.target.select()} />
      </DialogContent>
      <DialogActions>
        <Button onClick={() => void navigator.clipboard?.writeText(token)}>{t('analytics.settings.copy')}</Button>
        <Button variant="contained" onClick={onClose}>
          {t('analytics.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
