import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { Control, FieldPath, FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { CheckboxField } from '../../src/ui/form/CheckboxField';
import { LEGAL_LINKS, LinkedLabel } from '../../src/ui/form/LinkedLabel';

/** How both sign-up forms end (SPEC §8): the two agreements, the submit button, and the way to sign in instead. */
export function SignUpFormEnd<T extends FieldValues>({ control, submitLabel, submitting }: { control: Control<T>; submitLabel: string; submitting: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      <Box>
        <CheckboxField control={control} name={'acceptTerms' as FieldPath<T>} label={<LinkedLabel text={t('auth.signUp.acceptTerms')} linkText={t('auth.signUp.termsLink')} href={LEGAL_LINKS.terms} />} />
        <CheckboxField control={control} name={'acceptPrivacy' as FieldPath<T>} label={<LinkedLabel text={t('auth.signUp.acceptPrivacy')} linkText={t('auth.signUp.privacyLink')} href={LEGAL_LINKS.privacy} />} />
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
