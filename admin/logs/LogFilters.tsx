import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { AUDIT_TARGET_TYPES } from '../../src/domain/audit';
import { codeAsWords } from '../../src/ui/format';

export interface LogFilterValues {
  targetType: string;
  action: string;
  actor: string;
  from: string;
  to: string;
}

export const NO_LOG_FILTERS: LogFilterValues = { targetType: '', action: '', actor: '', from: '', to: '' };

/** Target type, action, actor and date filters of the audit log. */
export function LogFilters({ value, onChange }: { value: LogFilterValues; onChange: (next: LogFilterValues) => void }) {
  const { t } = useTranslation();
  const set = (patch: Partial<LogFilterValues>) => onChange({ ...value, ...patch });
  const shrink = { inputLabel: { shrink: true } };
  return (
    <Box role="group" aria-label={t('admin.filters')} sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, mb: 2 }}>
      <TextField select size="small" label={t('resources.logs.fields.targetType')} value={value.targetType} onChange={(e) => set({ targetType: e.target.value })} slotProps={{ select: { native: true }, ...shrink }} sx={{ minWidth: 150 }}>
        <option value="">{t('admin.any')}</option>
        {AUDIT_TARGET_TYPES.map((type) => (
          <option key={type} value={type}>
            {t(`resources.logs.targetTypes.${type}`, { defaultValue: codeAsWords(type) })}
          </option>
        ))}
      </TextField>
      <TextField size="small" label={t('resources.logs.fields.action')} placeholder="user.lock" value={value.action} onChange={(e) => set({ action: e.target.value.trim() })} slotProps={shrink} />
      <TextField size="small" label={t('resources.logs.fields.actor')} value={value.actor} onChange={(e) => set({ actor: e.target.value.trim() })} slotProps={shrink} />
      <TextField type="date" size="small" label={t('admin.from')} value={value.from} onChange={(e) => set({ from: e.target.value })} slotProps={shrink} />
      <TextField type="date" size="small" label={t('admin.to')} value={value.to} onChange={(e) => set({ to: e.target.value })} slotProps={shrink} />
    </Box>
  );
}
