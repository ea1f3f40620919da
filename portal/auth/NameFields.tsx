import Box from '@mui/material/Box';
import type { Control, FieldPath, FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../../src/ui/form/FormTextField';

/** First and last name side by side (one above the other on a phone): both sign-up forms start with them. */
export function NameFields<T extends FieldValues>({ control }: { control: Control<T> }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
      <FormTextField control={control} name={'firstName' as FieldPath<T>} label={t('auth.form.firstName')} autoComplete="given-name" autoFocus />
      <FormTextField control={control} name={'lastName' as FieldPath<T>} label={t('auth.form.lastName')} autoComplete="family-name" />
    </Box>
  );
}
