import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { APP_TYPES } from '../../domain/constants';
import { appInputSchema, type AppDto, type AppInput } from '../../domain/schemas';
import { FormTextField } from '../../../src/ui/form/FormTextField';
import { NativeSelectField } from '../../../src/ui/form/NativeSelectField';
import { useFormSubmit } from '../../../src/ui/form/useFormSubmit';
import { timeZones } from './timeZones';

type Values = z.input<typeof appInputSchema>;
const FIELDS = ['name', 'type', 'category', 'timezone', 'checksumSalt'] as const;

/** The application form (create and edit): name, type, category, time zone, checksum salt, locked. */
export function AppForm({ initial, submitLabel, onSubmit, disabled }: { initial?: AppDto; submitLabel: string; onSubmit: (values: AppInput) => Promise<void>; disabled?: boolean }) {
  const { t } = useTranslation();
  const { control, handleSubmit, setError, formState } = useForm<Values, unknown, AppInput>({
    resolver: zodResolver(appInputSchema),
    mode: 'onTouched',
    defaultValues: {
      name: initial?.name ?? '',
      type: (initial?.type as Values['type']) ?? 'mobile',
      category: initial?.category ?? '',
      timezone: initial?.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC',
      checksumSalt: initial?.checksumSalt ?? '',
      locked: initial?.locked ?? false,
    },
  });
  const { run, failure } = useFormSubmit<Values>({ fields: FIELDS, setError });
  const submit = handleSubmit(async (values) => {
    await run(() => onSubmit({ ...values, category: values.category || null, checksumSalt: values.checksumSalt || null }));
  });
  return (
    <Stack component="form" noValidate spacing={2.5} onSubmit={submit} aria-label={submitLabel}>
      {failure && (
        <Alert severity="error" role="alert">
          {failure}
        </Alert>
      )}
      <FormTextField control={control} name="name" label={t('analytics.apps.name')} maxLength={100} disabled={disabled} />
      <NativeSelectField control={control} name="type" label={t('analytics.apps.type')} options={APP_TYPES.map((v) => ({ value: v, label: t(`analytics.apps.types.${v}`) }))} disabled={disabled} />
      <FormTextField control={control} name="category" label={t('analytics.apps.category')} maxLength={64} disabled={disabled} />
      <NativeSelectField control={control} name="timezone" label={t('analytics.apps.timezone')} options={timeZones().map((z) => ({ value: z, label: z }))} disabled={disabled} />
      <FormTextField control={control} name="checksumSalt" label={t('analytics.apps.checksumSalt')} maxLength={128} disabled={disabled} />
      <Typography variant="body2" color="text.secondary" sx={{ mt: '4px !important' }}>
        {t('analytics.apps.checksumHint')}
      </Typography>
      <Controller
        control={control}
        name="locked"
        render={({ field }) => <FormControlLabel control={<Switch checked={Boolean(field.value)} onChange={(e) => field.onChange(e.target.checked)} disabled={disabled} />} label={t('analytics.apps.locked')} />}
      />
      <Typography variant="body2" color="text.secondary" sx={{ mt: '0 !important' }}>
        {t('analytics.apps.lockedHint')}
      </Typography>
      {!disabled && (
        <Button type="submit" variant="contained" loading={formState.isSubmitting} sx={{ alignSelf: 'flex-start' }}>
          {submitLabel}
        </Button>
      )}
    </Stack>
  );
}
