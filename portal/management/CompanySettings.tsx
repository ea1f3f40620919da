import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useUpdateCompany } from '../../dataProvider/companies/queries';
import { COMPANY_SIZES, updateCompanySchema } from '../../src/domain/companies/schemas';
import { LIMITS } from '../../src/domain/constants';
import { type CompanyDto } from '../../src/domain/companies/answers';
import { session } from '../../src/session';
import { FormTextField } from '../../src/ui/form/FormTextField';
import { useFormSubmit } from '../../src/ui/form/useFormSubmit';
import { showToast } from '../../src/ui/toast/toastStore';
import { countryOptions } from './countries';
import { DangerZone } from './DangerZone';
import { KEEP_LOGO, LogoField, logoUpdate, type LogoChange } from './LogoField';
import { NativeSelectField } from '../../src/ui/form/NativeSelectField';
import '../../src/managementI18n';

// The logo travels beside the form (a file, not a field), so removeLogo is not a form field.
const companyFormSchema = updateCompanySchema.omit({ removeLogo: true });
type CompanyFormInput = z.input<typeof companyFormSchema>;
type CompanyFormOutput = z.output<typeof companyFormSchema>;

const isSize = (size: string | null): size is (typeof COMPANY_SIZES)[number] => (COMPANY_SIZES as readonly (string | null)[]).includes(size);

function formValues(company: CompanyDto): CompanyFormInput {
  return {
    name: company.name,
    size: isSize(company.size) ? company.size : undefined,
    billingCountry: company.billingCountry ?? '',
    taxId: company.taxId ?? '',
    billingAddress: company.billingAddress ?? '',
    billingPostalCode: company.billingPostalCode ?? '',
    billingCity: company.billingCity ?? '',
  };
}

interface Props {
  company: CompanyDto;
  /** Called with what the server answered after a save. */
  onSaved: (company: CompanyDto) => void;
}

/** Management › Company: name, size, billing country, tax id, billing address and logo; admins edit, viewers read. */
export function CompanySettings({ company, onSaved }: Props) {
  const { t } = useTranslation();
  const canEdit = company.role === 'admin';
  const [logo, setLogo] = useState<LogoChange>(KEEP_LOGO);
  const values = useMemo(() => formValues(company), [company]);
  const { control, handleSubmit, reset, setError, formState } = useForm<CompanyFormInput, unknown, CompanyFormOutput>({
    resolver: zodResolver(companyFormSchema),
    mode: 'onTouched',
    // A refresh brings other people's changes into untouched fields; what the user typed stays.
    values,
    resetOptions: { keepDirtyValues: true, keepErrors: true },
  });
  const { run, failure, setFailure } = useFormSubmit({ fields: ['name', 'size', 'billingCountry', 'taxId', 'billingAddress', 'billingPostalCode', 'billingCity'], setError });
  const update = useUpdateCompany(company._id);
  const countries = useMemo(() => countryOptions().map((c) => ({ value: c.code, label: c.name })), []);
  const sizes = useMemo(() => COMPANY_SIZES.map((value) => ({ value, label: t(`companySizes.${value}`) })), [t]);
  const dirty = formState.isDirty || logo.kind !== 'keep';

  const discard = () => {
    reset(values);
    setLogo(KEEP_LOGO);
    setFailure(null);
  };
  const submit = handleSubmit(async ({ name, size, billingCountry, taxId, billingAddress, billingPostalCode, billingCity }) => {
    await run(async () => {
      const saved = await update.mutateAsync({
        name,
        size,
        billingCountry: billingCountry ?? '',
        taxId: taxId ?? '',
        billingAddress: billingAddress ?? '',
        billingPostalCode: billingPostalCode ?? '',
        billingCity: billingCity ?? '',
        logo: logoUpdate(logo),
      });
      reset(formValues(saved));
      setLogo(KEEP_LOGO);
      onSaved(saved);
      showToast({ text: t('management.company.saved'), variant: 'successful' });
      // The company switcher shows the name from the user's company list.
      if (saved.name !== company.name) void session.refresh();
    });
  });

  return (
    <Stack spacing={3}>
      {!canEdit && <Alert severity="info">{t('management.viewerNotice')}</Alert>}
      <Paper variant="outlined" component="section" aria-labelledby="company-details-title" sx={{ p: { xs: 2, sm: 3 } }}>
        <Typography id="company-details-title" variant="h2" sx={{ fontSize: '1.25rem', mb: 3 }}>
          {t('management.company.title')}
        </Typography>
        <Box component="form" noValidate onSubmit={submit}>
          <Stack spacing={3}>
            {failure && (
              <Alert severity="error" role="alert">
                {failure}
              </Alert>
            )}
            <LogoField companyName={company.name} current={company.logo} change={logo} onChange={setLogo} disabled={!canEdit || formState.isSubmitting} />
            <FormTextField control={control} name="name" label={t('management.company.name')} autoComplete="organization" disabled={!canEdit} />
            <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
              <NativeSelectField control={control} name="size" label={t('management.company.size')} options={sizes} placeholder={t('management.company.noSize')} disabled={!canEdit} />
              <NativeSelectField
                control={control}
                name="billingCountry"
                label={t('management.company.billingCountry')}
                options={countries}
                placeholder={t('management.company.noCountry')}
                emptyValue=""
                helperText={t('management.company.billingCountryHelp')}
                disabled={!canEdit}
              />
            </Box>
            <Box>
              <FormTextField control={control} name="taxId" label={t('management.company.taxId')} maxLength={LIMITS.taxIdMax} describedBy="company-tax-id-help" disabled={!canEdit} />
              <Typography id="company-tax-id-help" variant="caption" color="text.secondary" sx={{ display: 'block', mt: 0.5, mx: 1.75 }}>
                {t('management.company.taxIdHelp')}
              </Typography>
            </Box>
            <Box component="fieldset" aria-describedby="company-address-help" sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
              <Typography component="legend" variant="subtitle2" sx={{ mb: 2 }}>
                {t('management.company.billingAddressTitle')}
              </Typography>
              <Stack spacing={3}>
                <FormTextField control={control} name="billingAddress" label={t('management.company.billingAddress')} autoComplete="street-address" minRows={2} disabled={!canEdit} />
                <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', sm: '1fr 2fr' } }}>
                  <FormTextField control={control} name="billingPostalCode" label={t('management.company.billingPostalCode')} autoComplete="postal-code" maxLength={LIMITS.postalCodeMax} disabled={!canEdit} />
                  <FormTextField control={control} name="billingCity" label={t('management.company.billingCity')} autoComplete="address-level2" maxLength={LIMITS.cityMax} disabled={!canEdit} />
                </Box>
              </Stack>
              <Typography id="company-address-help" variant="caption" color="text.secondary" sx={{ display: 'block', mt: 0.5, mx: 1.75 }}>
                {t('management.company.billingAddressHelp')}
              </Typography>
            </Box>
            {canEdit && (
              <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end', flexWrap: 'wrap-reverse' }}>
                <Button color="inherit" onClick={discard} disabled={!dirty || formState.isSubmitting}>
                  {t('management.company.discard')}
                </Button>
                <Button type="submit" variant="contained" disabled={!dirty} loading={formState.isSubmitting}>
                  {t('management.company.save')}
                </Button>
              </Box>
            )}
          </Stack>
        </Box>
      </Paper>
      {canEdit && <DangerZone company={company} />}
    </Stack>
  );
}
