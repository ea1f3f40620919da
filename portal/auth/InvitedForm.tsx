import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { companiesApi } from '../../dataProvider/companies';
import { DESIGNATIONS } from '../../src/domain/constants';
import { isSignedIn, session } from '../../src/session';
import { NativeSelectField } from '../../src/ui/form/NativeSelectField';
import { lazyResolver } from '../../src/ui/form/lazyResolver';
import { PasswordField } from '../../src/ui/form/PasswordField';
import { ReadOnlyField } from '../../src/ui/form/ReadOnlyField';
import { useFormSubmit } from '../../src/ui/form/useFormSubmit';
import type { InvitedFormValues } from './authForms';
import { authForms } from './authFormsLoader';
import type { Invitation } from './invitation';
import { NameFields } from './NameFields';
import { SignUpFormEnd } from './SignUpFormEnd';
import { signUpFailure, stripErrorPrefix } from './signUpFailure';

const FIELDS = ['firstName', 'lastName', 'designation', 'password'] as const;

/**
 * The new member's form of the invited sign-up (InvitedSignUpPage). Its own chunk: the page shows
 * 'Checking your invitation' first, and this loads while the invitation is checked.
 */
export default function InvitedForm({ token, invitation, onAccepted }: { token: string; invitation: Invitation; onAccepted: () => void }) {
  const { t } = useTranslation();
  const { control, handleSubmit, setError, formState } = useForm<InvitedFormValues>({
    resolver: lazyResolver(authForms, (f) => f.resolvers.invited),
    mode: 'onTouched',
    defaultValues: { token, firstName: '', lastName: '', designation: undefined, password: '' },
  });
  // Shown above the fields too, in sign-up's words (SPEC §8).
  const { run, failure } = useFormSubmit({ fields: FIELDS, setError, clean: stripErrorPrefix, alwaysReport: true, message: signUpFailure });
  const submit = handleSubmit(({ firstName, lastName, designation, password }) =>
    run(async () => {
      await companiesApi.acceptInvitation({ token, firstName, lastName, designation, password });
      // SPEC §4 refreshes the user after an invited sign-up; that only means something when this
      // browser already has a session (an existing user who just joined another company).
      if (isSignedIn(session.getSnapshot())) await session.refresh();
      onAccepted();
    }),
  );
  return (
    <Box component="form" noValidate onSubmit={submit}>
      <Stack spacing={2}>
        {failure && (
          <Alert severity="error" role="alert">
            {failure}
          </Alert>
        )}
        <ReadOnlyField label={t('invited.email')} value={invitation.email} type="email" />
        <NameFields control={control} />
        <NativeSelectField
          control={control}
          name="designation"
          label={t('invited.designation')}
          placeholder={t('invited.choose')}
          options={DESIGNATIONS.map((value) => ({ value, label: t(`designations.${value}`) }))}
        />
        <PasswordField control={control} name="password" label={t('auth.form.password')} autoComplete="new-password" showRules />
        <SignUpFormEnd control={control} submitLabel={t('invited.submit')} submitting={formState.isSubmitting} />
      </Stack>
    </Box>
  );
}
