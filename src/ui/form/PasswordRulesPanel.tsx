import Close from '@mui/icons-material/Close';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/** SPEC §5: the panel's fixed height, so it never pushes the form around. */
export const PASSWORD_PANEL_HEIGHT = 264;

/** Lists the password rules still broken; shown under the field while it is focused and invalid. */
export function PasswordRulesPanel({ id, failed }: { id: string; failed: string[] }) {
  const { t } = useTranslation();
  return (
    <Paper
      id={id}
      elevation={6}
      aria-label={t('auth.form.passwordRules')}
      // Only a hint: taps and clicks go through it to the fields and buttons it covers.
      sx={{ position: 'absolute', top: '100%', left: 0, right: 0, mt: 0.5, height: PASSWORD_PANEL_HEIGHT, overflowY: 'auto', zIndex: 'modal', p: 2, pointerEvents: 'none' }}
    >
      <Typography variant="subtitle2" component="p" sx={{ mb: 0.5 }}>
        {t('auth.form.passwordRules')}
      </Typography>
      <List dense disablePadding>
        {failed.map((key) => (
          <ListItem key={key} disableGutters>
            <ListItemIcon sx={{ minWidth: 32 }}>
              <Close color="error" fontSize="small" aria-hidden />
            </ListItemIcon>
            <ListItemText primary={t(key)} />
          </ListItem>
        ))}
      </List>
    </Paper>
  );
}
