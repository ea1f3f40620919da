import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { Control, FieldPath, FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { CheckboxField } from '../../src/ui/form/CheckboxField';

/** How both sign-up forms end (SPEC §8): the two agreements, the submit button, and the way to sign in instead. */
export function SignUpFormEnd<T extends FieldValues>({ control, submitLabel, submitting }: { control: Control<T>; submitLabel: string; submitting: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      <Box>
        <CheckboxField control={control} name={'acceptTerms' as FieldPath<T>} label={t('auth.signUp.acceptTerms')} />
        <CheckboxField control={control} name={'acceptPrivacy' as FieldPath<T>} label={t('auth.signUp.acceptPrivacy')} />
      </Box>
      <Button type="submit" variant="contained" size="large" fullWidth loading={submitting}>
        {submitLabel}
      </Button>
      <Typography color="text.secondary" sx={{ textAlign: 'center' }}>
        {t('auth.signUp.haveAccount')}{' '}
        <Link component={RouterLink} to="/account/signin">
          {t('auth.signUp.signIn')}
        </Link>
      </Typography>
    </>
  );
}
