import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { useAnalytics } from './context';

/** The application every events screen shows (Countly's app switcher). */
export function AppSelector() {
  const { t } = useTranslation();
  const { apps, app, selectApp } = useAnalytics();
  if (!apps.length) return null;
  return (
    <TextField select size="small" label={t('analytics.app')} value={app?._id ?? ''} onChange={(e) => selectApp(e.target.value)} sx={{ minWidth: { xs: 120, sm: 220 }, maxWidth: 260 }}>
      {apps.map((a) => (
        <MenuItem key={a._id} value={a._id}>
          {a.name}
        </MenuItem>
      ))}
    </TextField>
  );
}
