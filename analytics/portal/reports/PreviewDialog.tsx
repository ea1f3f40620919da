import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { ReportPreview } from '../../domain/schemas';

/** The report mail as it would go now: its subject and text (the HTML version carries the same numbers). */
export function PreviewDialog({ preview, onClose }: { preview: ReportPreview; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{t('analytics.reports.previewTitle')}</DialogTitle>
      <DialogContent>
        <Typography variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
          {preview.subject}
        </Typography>
        <Box component="pre" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', fontFamily: 'inherit', fontSize: 14, m: 0 }}>
          {preview.text}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('analytics.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
