import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { AppRolesField } from './AppRolesField';
import type { AppRole } from './roles';

export interface MemberState {
  globalAdmin: boolean;
  locked: boolean;
  /** 'YYYY-MM-DDTHH:mm' (a datetime-local value) or ''. */
  bannedUntil: string;
  roles: Record<string, AppRole>;
}

/** The rights a dashboard user has: global admin, locked, time ban, and a role per app. */
export function MemberFields({ value, onChange, tried, needsApp }: { value: MemberState; onChange: (next: MemberState) => void; tried: boolean; needsApp: boolean }) {
  const { t } = useTranslation();
  return (
    <Stack spacing={2}>
      <FormControlLabel control={<Switch checked={value.globalAdmin} onChange={(e) => onChange({ ...value, globalAdmin: e.target.checked })} />} label={t('analytics.members.globalAdmin')} />
      <FormControlLabel control={<Switch checked={value.locked} onChange={(e) => onChange({ ...value, locked: e.target.checked })} />} label={t('analytics.members.locked')} />
      <TextField
        type="datetime-local"
        label={t('analytics.members.bannedUntil')}
        value={value.bannedUntil}
        onChange={(e) => onChange({ ...value, bannedUntil: e.target.value })}
        slotProps={{ inputLabel: { shrink: true } }}
        sx={{ maxWidth: 280 }}
      />
      {!value.globalAdmin && <AppRolesField value={value.roles} onChange={(roles) => onChange({ ...value, roles })} error={tried && needsApp} />}
    </Stack>
  );
}
