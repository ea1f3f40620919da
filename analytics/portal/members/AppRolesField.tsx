import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { useAnalytics } from '../context';
import type { AppRole } from './roles';

/** Admin of / user of: one role per application. */
export function AppRolesField({ value, onChange, error }: { value: Record<string, AppRole>; onChange: (next: Record<string, AppRole>) => void; error: boolean }) {
  const { t } = useTranslation();
  const { apps } = useAnalytics();
  return (
    <Stack component="fieldset" spacing={1.5} sx={{ border: 0, p: 0, m: 0 }}>
      <FormLabel component="legend" error={error} sx={{ mb: 1 }}>
        {t('analytics.members.adminOf')} / {t('analytics.members.userOf')}
      </FormLabel>
      {apps.map((app) => (
        <TextField key={app._id} select size="small" label={app.name} value={value[app._id] ?? 'none'} onChange={(e) => onChange({ ...value, [app._id]: e.target.value as AppRole })}>
          <MenuItem value="none">—</MenuItem>
          <MenuItem value="admin">{t('analytics.members.roles.admin')}</MenuItem>
          <MenuItem value="user">{t('analytics.members.roles.user')}</MenuItem>
        </TextField>
      ))}
      {error && (
        <FormHelperText error role="alert">
          {t('analytics.members.needsApp')}
        </FormHelperText>
      )}
    </Stack>
  );
}
