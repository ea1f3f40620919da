import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { companiesApi } from '../../dataProvider/companies';
import { ApiError } from '../../dataProvider/httpClient';
import { COMPANY_ROLES, DESIGNATIONS } from '../../src/domain/constants';
import { isSignedIn, saveReturnRoute, session, useSession } from '../../src/session';
import { CheckboxField } from '../../src/ui/form/CheckboxField';
import { FormTextField } from '../../src/ui/form/FormTextField';
import { applyServerErrors } from '../../src/ui/form/messages';
import { NativeSelectField } from '../../src/ui/form/NativeSelectField';
import { lazyResolver } from '../../src/ui/form/lazyResolver';
import { PasswordField } from '../../src/ui/form/PasswordField';
import { ReadOnlyField } from '../../src/ui/form/ReadOnlyField';
import type { InvitedFormValues } from './authForms';
import { authForms } from './authFormsLoader';
import { AuthHeading } from './AuthHeading';
import { once } from './once';
import { signUpFailure, stripErrorPrefix } from './signUpFailure';
import { Waiting } from './Waiting';

type Invitation = Awaited<ReturnType<typeof companiesApi.checkInvited>>;

const FIELDS = ['firstName', 'lastName', 'designation', 'password'] as const;
const INVALID = '/account/signin?error=invalid-invitation';
const SIGN_IN = '/account/signin';
/** How long 'Invitation accepted' stays before sign-in opens by itself. */
export const ACCEPTED_REDIRECT_MS = 3000;

/** After joining: a signed-in member goes on into the product, anyone else to sign-in. */
function Accepted({ company }: { company: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [next] = useState(() => (isSignedIn(session.getSnapshot()) ? '/loading?referrer=login' : SIGN_IN));
  useEffect(() => {
    const timer = setTimeout(() => navigate(next, { replace: true }), ACCEPTED_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [navigate, next]);
  return (
    <Stack spacing={2}>
      <Alert severity="success" role="status">
        <AlertTitle>{t('invited.accepted')}</AlertTitle>
        {t('invited.acceptedBody', { company })}
      </Alert>
      <Button variant="contained" size="large" component={RouterLink} to={next} replace>
        {t(next === SIGN_IN ? 'invited.signIn' : 'invited.continue')}
      </Button>
    </Stack>
  );
}

/**
 * A verified account joins only from a browser signed in as it: the mailed link proves the
 * mailbox, not the account. Signed in as it: one click joins. Otherwise: sign in first and come
 * back here (the return route brings the browser back to this link).
 */
function ExistingAccount({ token, invitation, onAccepted }: { token: string; invitation: Invitation; onAccepted: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const current = useSession();
  const [failure, setFailure] = useState<string | null>(null);
  const [joining, setJoining] = useState(false);
  const signedInAsInvitee = isSignedIn(current) && current.user?.email === invitation.email;
  const join = async () => {
    setFailure(null);
    setJoining(true);
    try {
      await companiesApi.joinInvitation(token);
      await session.refresh();
      onAccepted();
    } catch (error) {
      setFailure(signUpFailure(error, t));
    } finally {
      setJoining(false);
    }
  };
  const signInFirst = () => {
    saveReturnRoute(`/account/invited?token=${encodeURIComponent(token)}`);
    navigate('/account/signin?ref=invitation-sign-in');
  };
  return (
    <Stack spacing={2}>
      <Alert severity="info" role="note">
        {t(signedInAsInvitee ? 'invited.existingSignedIn' : 'invited.existingUser', { company: invitation.companyName, email: invitation.email })}
      </Alert>
      {failure && (
        <Alert severity="error" role="alert">
          {failure}
        </Alert>
      )}
      <ReadOnlyField label={t('invited.email')} value={invitation.email} type="email" />
      {signedInAsInvitee ? (
        <Button variant="contained" size="large" fullWidth loading={joining} onClick={() => void join()}>
          {t('invited.join', { company: invitation.companyName })}
        </Button>
      ) : (
        <Button variant="contained" size="large" fullWidth onClick={signInFirst}>
          {t('invited.signInToJoin')}
        </Button>
      )}
    </Stack>
  );
}

function InvitedForm({ token, invitation, onAccepted }: { token: string; invitation: Invitation; onAccepted: () => void }) {
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
          <CheckboxField control={control} name="acceptTerms" label={t('auth.signUp.acceptTerms')} />
          <CheckboxField control={control} name="acceptPrivacy" label={t('auth.signUp.acceptPrivacy')} />
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

/**
 * Invited sign-up (SPEC §2, §4, §5): the token from the query is checked on load (a missing or
 * refused one goes to sign-in with the invalid-invitation notice); accepting shows 'Invitation
 * accepted', then sign-in.
 */
export default function InvitedSignUpPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const token = useSearchParams()[0].get('token')?.trim() ?? '';
  const [invitation, setInvitation] = useState<Invitation | null>(null);
  const [loadFailure, setLoadFailure] = useState<string | null>(null);
  const [accepted, setAccepted] = useState(false);

  useEffect(() => {
    if (!token) {
      navigate(INVALID, { replace: true });
      return;
    }
    let live = true;
    once(`check-invited:${token}`, () => companiesApi.checkInvited(token)).then(
      (found) => live && setInvitation(found),
      (error: unknown) => {
        if (!live) return;
        // SPEC §8: a refused token goes to sign-in; anything else (offline, rate limit) is said here.
        if (error instanceof ApiError && error.status === 400) navigate(INVALID, { replace: true });
        else setLoadFailure(error instanceof ApiError && error.message ? error.message : t('errors.somethingWentWrong'));
      },
    );
    return () => {
      live = false;
    };
  }, [token, navigate, t]);

  // 'You are invited to {company}.', and the role when it is one this product knows.
  const knownRole = invitation && (COMPANY_ROLES as readonly string[]).includes(invitation.role) ? t('invited.role', { role: t(`invited.roles.${invitation.role}`) }) : null;
  const intro = invitation ? [t('invited.intro', { company: invitation.companyName }), knownRole].filter(Boolean).join(' ') : undefined;
  let body;
  if (loadFailure) {
    body = (
      <Stack spacing={2}>
        <Alert severity="error" role="alert">
          {loadFailure}
        </Alert>
        <Link component={RouterLink} to={SIGN_IN}>
          {t('auth.backToLogin')}
        </Link>
      </Stack>
    );
  } else if (!invitation) {
    body = <Waiting text={t('invited.checking')} />;
  } else if (accepted) {
    body = <Accepted company={invitation.companyName} />;
  } else {
    body = invitation.existingUser ? (
      <ExistingAccount token={token} invitation={invitation} onAccepted={() => setAccepted(true)} />
    ) : (
      <InvitedForm token={token} invitation={invitation} onAccepted={() => setAccepted(true)} />
    );
  }
  return (
    <>
      <AuthHeading title={t('titles.invited')} intro={intro} />
      {body}
    </>
  );
}
