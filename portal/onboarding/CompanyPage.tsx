import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import NativeSelect from '@mui/material/NativeSelect';
import Stack from '@mui/material/Stack';
import { Controller, useForm, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { companiesApi } from '../../dataProvider/companies';
import { COMPANY_SIZES, DESIGNATIONS } from '../../src/domain/constants';
import { session } from '../../src/session';
import { FormTextField } from '../../src/ui/form/FormTextField';
import { lazyResolver } from '../../src/ui/form/lazyResolver';
import { useFormSubmit } from '../../src/ui/form/useFormSubmit';
import { AuthHeading } from '../auth/AuthHeading';
import type { CompanyForm } from './companyForm';

// The form's validation (zod and the shared schemas) loads alongside the page, not before it.
const companyForm = import('./companyForm');

function SelectField({ control, name, label, options }: { control: Control<CompanyForm>; name: 'size' | 'designation'; label: string; options: { value: string; label: string }[] }) {
  const { t } = useTranslation();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <FormControl fullWidth error={Boolean(fieldState.error)}>
          <InputLabel variant="standard" htmlFor={`company-${name}`} shrink>
            {label}
          </InputLabel>
          <NativeSelect
            inputProps={{ id: `company-${name}`, name: field.name, 'aria-invalid': Boolean(fieldState.error) }}
            value={field.value ?? ''}
            onChange={(e) => field.onChange(e.target.value === '' ? undefined : e.target.value)}
            onBlur={field.onBlur}
          >
            <option value="">{t('onboarding.company.choose')}</option>
            {options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </NativeSelect>
          {fieldState.error?.message && <FormHelperText>{t(fieldState.error.message)}</FormHelperText>}
        </FormControl>
      )}
    />
  );
}

/** Onboarding, step two (SPEC §2 account/company): name the company, then into the main layout. */
export default function CompanyPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { control, handleSubmit, setError, formState } = useForm<CompanyForm>({
    resolver: lazyResolver(companyForm, (m) => m.companyResolver),
    mode: 'onTouched',
    defaultValues: { name: '', size: undefined, designation: undefined },
  });
  const { run, failure } = useFormSubmit({ fields: ['name', 'size'], setError });
  const submit = handleSubmit(async ({ designation, ...company }) => {
    await run(async () => {
      await companiesApi.create(company, { onboarding: true, designation });
      await session.refresh('manual');
      navigate('/loading?referrer=login', { replace: true });
    });
  });
  return (
    <>
      <AuthHeading title={t('titles.company')} intro={t('onboarding.company.intro')} />
      <Box component="form" noValidate onSubmit={submit}>
        <Stack spacing={3}>
          {failure && (
            <Alert severity="error" role="alert">
              {failure}
            </Alert>
          )}
          <FormTextField control={control} name="name" label={t('onboarding.company.name')} autoComplete="organization" autoFocus />
          <SelectField control={control} name="size" label={t('onboarding.company.size')} options={COMPANY_SIZES.map((value) => ({ value, label: t(`companySizes.${value}`) }))} />
          <SelectField control={control} name="designation" label={t('onboarding.company.designation')} options={DESIGNATIONS.map((value) => ({ value, label: t(`designations.${value}`) }))} />
          <Button type="submit" variant="contained" size="large" fullWidth loading={formState.isSubmitting}>
            {t('onboarding.company.submit')}
          </Button>
        </Stack>
      </Box>
    </>
  );
}
