import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { COMPANY_SIZES } from '../../src/domain/companies/schemas';

export interface CompanyFilterValues {
  size: string;
  createdFrom: string;
  createdTo: string;
  hasPaidServers: '' | 'true' | 'false';
}

export const NO_COMPANY_FILTERS: CompanyFilterValues = { size: '', createdFrom: '', createdTo: '', hasPaidServers: '' };

/** The filter value the API takes: only what is set, the paid-servers choice as a boolean. */
export function companyFilter(v: CompanyFilterValues): Record<string, unknown> {
  return {
    size: v.size || undefined,
    createdFrom: v.createdFrom || undefined,
    createdTo: v.createdTo || undefined,
    hasPaidServers: v.hasPaidServers === '' ? undefined : v.hasPaidServers === 'true',
  };
}

/** Size, created between and has-paid-servers filters of the company list. */
export function CompanyFilters({ value, onChange }: { value: CompanyFilterValues; onChange: (next: CompanyFilterValues) => void }) {
  const { t } = useTranslation();
  const set = (patch: Partial<CompanyFilterValues>) => onChange({ ...value, ...patch });
  const native = { select: true, size: 'small' as const, slotProps: { select: { native: true }, inputLabel: { shrink: true } } };
  return (
    <Box role="group" aria-label={t('admin.filters')} sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, mb: 2 }}>
      <TextField {...native} label={t('resources.companies.fields.size')} value={value.size} onChange={(e) => set({ size: e.target.value })} sx={{ minWidth: 160 }}>
        <option value="">{t('admin.any')}</option>
        {COMPANY_SIZES.map((s) => (
          <option key={s} value={s}>
            {t(`companySizes.${s}`)}
          </option>
        ))}
      </TextField>
      <TextField
        {...native}
        label={t('resources.companies.fields.hasPaidServers')}
        value={value.hasPaidServers}
        onChange={(e) => set({ hasPaidServers: e.target.value as CompanyFilterValues['hasPaidServers'] })}
        sx={{ minWidth: 160 }}
      >
        <option value="">{t('admin.any')}</option>
        <option value="true">{t('admin.yes')}</option>
        <option value="false">{t('admin.no')}</option>
      </TextField>
      <TextField type="date" size="small" label={t('admin.createdFrom')} value={value.createdFrom} onChange={(e) => set({ createdFrom: e.target.value })} slotProps={{ inputLabel: { shrink: true } }} />
      <TextField type="date" size="small" label={t('admin.createdTo')} value={value.createdTo} onChange={(e) => set({ createdTo: e.target.value })} slotProps={{ inputLabel: { shrink: true } }} />
    </Box>
  );
}
