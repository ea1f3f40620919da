import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { companiesApi } from '../../dataProvider/companies';
import { DESIGNATIONS } from '../../src/domain/constants';
import { isSignedIn, session } from '../../src/session';
import { CheckboxField } from '../../src/ui/form/CheckboxField';
import { LEGAL_LINKS, LinkedLabel } from '../../src/ui/form/LinkedLabel';
import { FormTextField } from '../../src/ui/form/FormTextField';
import { applyServerErrors } from '../../src/ui/form/messages';
import { NativeSelectField } from '../../src/ui/form/NativeSelectField';
import { lazyResolver } from '../../src/ui/form/lazyResolver';
import { PasswordField } from '../../src/ui/form/PasswordField';
import { ReadOnlyField } from '../../src/ui/form/ReadOnlyField';
import type { InvitedFormValues } from './authForms';
import { authForms } from './authFormsLoader';
import type { Invitation } from './invitation';
import { signUpFailure, stripErrorPrefix } from './signUpFailure';

const FIELDS = ['firstName', 'lastName', 'designation', 'password'] as const;
const SIGN_IN = '/account/signin';

/**
 * The new member's form of the invited sign-up (InvitedSignUpPage). Its own chunk: the page shows
 * 'Checking your invitation' first, and this loads while the invitation is checked.
 */
export default function InvitedForm({ token, invitation, onAccepted }: { token: string; invitation: Invitation; onAccepted: () => void }) {
  const { t } = useTranslation();
  const [failure, setFailure] = useState<string | null>(null);
  const { control, handleSubmit, setError, formState } = useForm<InvitedFormValues>({
    resolver: lazyResolver(authForms, (f) => f.resolvers.invited),
    mode: 'onTouched',
    defaultValues: { token, firstName: '', lastName: '', designation: undefined, password: '' },
  });
  const submit = handleSubmit(async ({ firstName, lastName, designation, password }) => {
    setFailure(null);
    try {
      await companiesApi.acceptInvitation({ token, firstName, lastName, designation, password });
      // SPEC §4 refreshes the user after an invited sign-up; that only means something when this
      // browser already has a session (an existing user who just joined another company).
      if (isSignedIn(session.getSnapshot())) await session.refresh();
      onAccepted();
    } catch (error) {
      applyServerErrors(error, FIELDS, setError, stripErrorPrefix);
      setFailure(signUpFailure(error, t));
    }
  });
  return (
    <Box component="form" noValidate onSubmit={submit}>
      <Stack spacing={2}>
        {failure && (
          <Alert severity="error" role="alert">
            {failure}
          </Alert>
        )}
        <ReadOnlyField label={t('invited.email')} value={invitation.email} type="email" />
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
          <FormTextField control={control} name="firstName" label={t('auth.form.firstName')} autoComplete="given-name" autoFocus />
          <FormTextField control={control} name="lastName" label={t('auth.form.lastName')} autoComplete="family-name" />
        </Box>
        <NativeSelectField
          control={control}
          name="designation"
          label={t('invited.designation')}
          placeholder={t('invited.choose')}
          options={DESIGNATIONS.map((value) => ({ value, label: t(`designations.${value}`) }))}
        />
        <PasswordField control={control} name="password" label={t('auth.form.password')} autoComplete="new-password" showRules />
        <Box>
          <CheckboxField control={control} name="acceptTerms" label={<LinkedLabel text={t('auth.signUp.acceptTerms')} linkText={t('auth.signUp.termsLink')} href={LEGAL_LINKS.terms} />} />
          <CheckboxField control={control} name="acceptPrivacy" label={<LinkedLabel text={t('auth.signUp.acceptPrivacy')} linkText={t('auth.signUp.privacyLink')} href={LEGAL_LINKS.privacy} />} />
        </Box>
        <Button type="submit" variant="contained" size="large" fullWidth loading={formState.isSubmitting}>
          {t('invited.submit')}
        </Button>
        <Typography color="text.secondary" sx={{ textAlign: 'center' }}>
          {t('auth.signUp.haveAccount')}{' '}
          <Link component={RouterLink} to={SIGN_IN}>
            {t('auth.signUp.signIn')}
          </Link>
        </Typography>
      </Stack>
    </Box>
  );
}
