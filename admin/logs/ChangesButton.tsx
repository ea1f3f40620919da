import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuditLogRow } from '../../src/domain/admin/schemas';
import { formatDateTime } from '../formatDate';
import { codeAsWords } from '../../src/ui/format';

const json = (value: unknown) => (value ? JSON.stringify(value, null, 2) : '—');

/** An entry's before and after, in a dialog (the table shows one line per entry). */
export function ChangesButton({ entry }: { entry: AuditLogRow }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  if (!entry.before && !entry.after) return null;
  return (
    <>
      <Button size="small" onClick={() => setOpen(true)} aria-label={`${t('resources.logs.show')} ${entry.action}`}>
        {t('resources.logs.show')}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} fullWidth maxWidth="md">
        <DialogTitle>{`${t(`resources.logs.actions.${entry.action}`, { defaultValue: codeAsWords(entry.action) })} · ${formatDateTime(entry.at)}`}</DialogTitle>
        <DialogContent>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
            {(['before', 'after'] as const).map((side) => (
              <Box key={side}>
                <Typography variant="subtitle2">{t(`resources.logs.${side}`)}</Typography>
                <Box component="pre" sx={{ m: 0, p: 1.5, bgcolor: 'action.hover', borderRadius: 1, overflowX: 'auto', fontSize: '0.8125rem' }}>
                  {json(entry[side])}
                </Box>
              </Box>
            ))}
          </Box>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{t('resources.logs.close')}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
