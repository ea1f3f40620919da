import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { authApi } from '../../dataProvider/auth';
import { ApiError } from '../../dataProvider/httpClient';
import { passkeysApi } from '../../dataProvider/passkeys';
import { LIMITS } from '../../src/domain/constants';
import { FormTextField } from '../../src/ui/form/FormTextField';
import { applyServerErrors, failureMessage } from '../../src/ui/form/messages';
import { lazyResolver } from '../../src/ui/form/lazyResolver';
import { PasswordField } from '../../src/ui/form/PasswordField';
import type { SignInBody } from '../../src/domain/auth/schemas';
import type { Credentials } from './authForms';
import { authForms, loadedAuthForms } from './authFormsLoader';
import { AuthHeading } from './AuthHeading';
import { GoogleSignIn } from './GoogleSignIn';
import { autofillSupported, cancelPasskeyRequest, getPasskey, passkeyDismissed } from './webauthn';

/** How the first step proved who the person is: their password, or a Google ID token. */
type FirstFactor = { kind: 'password'; credentials: Credentials } | { kind: 'google'; idToken: string };
const RECOVERY_CODE = /^[a-z0-9]{5}-[a-z0-9]{5}$/i;
// A recovery code as typed: letters and digits, the dash put in after the fifth character.
const recoveryFormat = (raw: string) => {
  const chars = raw.replace(/[^a-z0-9]/gi, '').toLowerCase().slice(0, 10);
  return chars.length > 5 ? `${chars.slice(0, 5)}-${chars.slice(5)}` : chars;
};

/** Notices other pages send here through the query; only these keys are ever shown. */
const REF_NOTICES: Record<string, { severity: 'success' | 'error'; key: string }> = {
  unlocked: { severity: 'success', key: 'auth.signIn.unlocked' },
  'unlock-failed': { severity: 'error', key: 'auth.signIn.unlockFailed' },
  'password-reset': { severity: 'success', key: 'auth.signIn.passwordReset' },
  verified: { severity: 'success', key: 'auth.signIn.verified' },
  'invitation-sign-in': { severity: 'success', key: 'auth.signIn.invitationSignIn' },
};
const ERROR_NOTICES: Record<string, string> = {
  'magic-link-invalid': 'errors.magicLinkInvalid',
  'session-timed-out': 'errors.sessionTimedOut',
  'invalid-invitation': 'errors.invalidInvitation',
};

/** The host a redirect query points at, for 'Login to continue'. */
function targetLabel(redirect: string): string {
  try {
    return new URL(redirect, window.location.origin).host || redirect;
  } catch {
    return redirect;
  }
}

const digitsOnly = (raw: string) => raw.replace(/\D/g, '').slice(0, LIMITS.twoFactorCodeLength);

/** The email a link fills in (an accepted invitation's): only something shaped like one. */
function prefilledEmail(value: string | null): string {
  return value && value.length <= 320 && /^[^\s@]+@[^\s@]+$/.test(value) ? value : '';
}

/**
 * Sign-in (SPEC §2, §4): credentials, then the 2FA code step when the API asks for it. The
 * unlock link appears only after a 'locked' answer.
 */
export default function SignInPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const redirect = params.get('redirect');
  const refNotice = REF_NOTICES[params.get('ref') ?? ''];
  const errorNotice = ERROR_NOTICES[params.get('error') ?? ''];

  const [step, setStep] = useState<'credentials' | 'code'>('credentials');
  const [firstFactor, setFirstFactor] = useState<FirstFactor | null>(null);
  const [useRecovery, setUseRecovery] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [locked, setLocked] = useState(false);
  const [magicLinkSentTo, setMagicLinkSentTo] = useState<string | null>(null);
  const [sendingMagicLink, setSendingMagicLink] = useState(false);
  const [usingPasskey, setUsingPasskey] = useState(false);

  const form = useForm({ resolver: lazyResolver(authForms, (f) => f.resolvers.credentials), mode: 'onTouched', defaultValues: { email: prefilledEmail(params.get('email')), password: '' } });
  const codeForm = useForm({ resolver: lazyResolver(authForms, (f) => f.resolvers.signInCode), defaultValues: { authCode: '' } });
  const code = useWatch({ control: codeForm.control, name: 'authCode' });

  const signedIn = () => navigate(redirect ? `/redirect?server_url=${encodeURIComponent(redirect)}` : '/loading?referrer=login');

  /**
   * A passkey alone: the browser asks which passkey, the server checks it. With
   * `autofill` the request waits in the email field's suggestions until the user picks one.
   */
  const passkeySignIn = async (autofill = false) => {
    // A passkey needs no email: leaving the (focused, empty) field for the button is no mistake to mark.
    const unmarkEmail = () => form.clearErrors('email');
    if (!autofill) {
      setFailure(null);
      setUsingPasskey(true);
      unmarkEmail();
    }
    try {
      const response = await getPasskey(await passkeysApi.signInOptions(), autofill);
      await passkeysApi.signIn(response);
      signedIn();
    } catch (error) {
      // A closed dialog, or an autofill request the button replaced, is no failure.
      if (passkeyDismissed(error)) {
        if (!autofill) setFailure(t('auth.signIn.passkeyDismissed'));
      } else if (error instanceof ApiError) setFailure(failureMessage(error, t));
      else if (!autofill) setFailure(t('auth.signIn.passkeyFailed'));
      if (!autofill) unmarkEmail();
    } finally {
      if (!autofill) setUsingPasskey(false);
    }
  };

  // Passkeys in the email field's autofill where the browser offers it; after hydration, so the
  // first render is the prerendered one.
  useEffect(() => {
    let live = true;
    let started = false;
    void autofillSupported().then((yes) => {
      if (!yes || !live) return;
      started = true;
      void passkeySignIn(true);
    });
    return () => {
      live = false;
      if (started) void cancelPasskeyRequest();
    };
    // Once per visit of the page: the request stays open until used or replaced.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const signIn = async (factor: FirstFactor, authCode?: string, passkey?: unknown) => {
    setFailure(null);
    setMagicLinkSentTo(null);
    try {
      if (factor.kind === 'password') await authApi.signIn({ ...factor.credentials, authCode, passkey: passkey as SignInBody['passkey'] });
      else await authApi.googleSignIn(factor.idToken, authCode);
      signedIn();
    } catch (error) {
      const codeOf = error instanceof ApiError ? error.code : undefined;
      if (codeOf === 'TWO_FACTOR_REQUIRED' || codeOf === 'TWO_FACTOR_FAILED') {
        // 'Required' opens the code step silently; 'failed' says the code was wrong.
        setFirstFactor(factor);
        setStep('code');
        codeForm.reset({ authCode: '' });
        if (codeOf === 'TWO_FACTOR_FAILED') setFailure(failureMessage(error, t));
        return;
      }
      if (codeOf === 'ACCOUNT_LOCKED') {
        setLocked(true);
        setStep('credentials');
      }
      if (factor.kind === 'google' || !applyServerErrors(error, ['email', 'password'], form.setError)) setFailure(failureMessage(error, t));
    }
  };

  const submitCredentials = form.handleSubmit((credentials) => signIn({ kind: 'password', credentials }));
  const submitCode = codeForm.handleSubmit(async ({ authCode }) => {
    if (firstFactor) await signIn(firstFactor, authCode);
  });
  const goBack = () => {
    setStep('credentials');
    setFailure(null);
    setUseRecovery(false);
    codeForm.reset({ authCode: '' });
  };
  const toggleRecovery = () => {
    setUseRecovery((on) => !on);
    setFailure(null);
    codeForm.reset({ authCode: '' });
  };
  const codeComplete = useRecovery ? RECOVERY_CODE.test(code) : (loadedAuthForms()?.isAuthCode(code) ?? false);

  /** The second factor by passkey instead of a code (password sign-in only). */
  const passkeySecondFactor = async () => {
    if (firstFactor?.kind !== 'password') return;
    setFailure(null);
    setUsingPasskey(true);
    try {
      const response = await getPasskey(await passkeysApi.signInOptions());
      await signIn(firstFactor, undefined, response);
    } catch (error) {
      setFailure(passkeyDismissed(error) ? t('auth.signIn.passkeyDismissed') : error instanceof ApiError ? failureMessage(error, t) : t('auth.signIn.passkeyFailed'));
    } finally {
      setUsingPasskey(false);
    }
  };

  const signInWithGoogle = (idToken: string) => void signIn({ kind: 'google', idToken });

  const sendMagicLink = async () => {
    setFailure(null);
    setMagicLinkSentTo(null);
    if (!(await form.trigger('email'))) return;
    const parsed = (await authForms).emailOnlySchema.safeParse({ email: form.getValues('email') });
    if (!parsed.success) return;
    setSendingMagicLink(true);
    try {
      await authApi.requestMagicLink(parsed.data);
      setMagicLinkSentTo(parsed.data.email);
    } catch (error) {
      setFailure(failureMessage(error, t));
    } finally {
      setSendingMagicLink(false);
    }
  };

  const notices = (
    <>
      {redirect && <Alert severity="info">{t('auth.signIn.loginToContinue', { target: targetLabel(redirect) })}</Alert>}
      {refNotice && <Alert severity={refNotice.severity}>{t(refNotice.key)}</Alert>}
      {errorNotice && <Alert severity="error">{t(errorNotice)}</Alert>}
      {failure && (
        <Alert severity="error" role="alert">
          {failure}
        </Alert>
      )}
    </>
  );

  if (step === 'code') {
    return (
      <>
        <AuthHeading title={t('auth.signIn.twoFactor.heading')} intro={t(useRecovery ? 'auth.signIn.twoFactor.recoveryIntro' : 'auth.signIn.twoFactor.intro')} />
        <Box component="form" noValidate onSubmit={submitCode}>
          <Stack spacing={2}>
            {notices}
            {useRecovery ? (
              <FormTextField key="recovery" control={codeForm.control} name="authCode" label={t('auth.signIn.twoFactor.recoveryCode')} autoComplete="off" maxLength={11} transform={recoveryFormat} autoFocus />
            ) : (
              <FormTextField
                key="totp"
                control={codeForm.control}
                name="authCode"
                label={t('auth.signIn.twoFactor.code')}
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={LIMITS.twoFactorCodeLength}
                transform={digitsOnly}
                autoFocus
              />
            )}
            <Button type="submit" variant="contained" size="large" fullWidth disabled={!codeComplete} loading={codeForm.formState.isSubmitting}>
              {t('auth.signIn.twoFactor.submit')}
            </Button>
            {firstFactor?.kind === 'password' && (
              <Button variant="outlined" onClick={() => void passkeySecondFactor()} loading={usingPasskey}>
                {t('auth.signIn.twoFactor.usePasskey')}
              </Button>
            )}
            <Button variant="text" onClick={toggleRecovery} sx={{ alignSelf: 'center' }}>
              {t(useRecovery ? 'auth.signIn.twoFactor.useAuthenticator' : 'auth.signIn.twoFactor.useRecoveryCode')}
            </Button>
            <Button variant="text" onClick={goBack} sx={{ alignSelf: 'center' }}>
              {t('auth.signIn.twoFactor.goBack')}
            </Button>
          </Stack>
        </Box>
      </>
    );
  }

  return (
    <>
      <AuthHeading title={t('titles.signIn')} intro={t('auth.signIn.intro')} />
      <GoogleSignIn mode="signIn" onCredential={signInWithGoogle} />
      <Box component="form" noValidate onSubmit={submitCredentials}>
        <Stack spacing={2}>
          {notices}
          {locked && (
            <Link component={RouterLink} to="/request-unlock" sx={{ fontWeight: 600 }}>
              {t('auth.signIn.requestUnlock')}
            </Link>
          )}
          {magicLinkSentTo && (
            <Alert severity="success" role="status">
              {t('auth.signIn.magicLinkSent', { email: magicLinkSentTo })}
            </Alert>
          )}
          <FormTextField control={form.control} name="email" label={t('auth.form.email')} type="email" inputMode="email" autoComplete="username webauthn" autoFocus />
          <PasswordField control={form.control} name="password" label={t('auth.form.password')} autoComplete="current-password" />
          <Link component={RouterLink} to="/forgot-password" sx={{ alignSelf: 'flex-end' }}>
            {t('auth.signIn.forgotPassword')}
          </Link>
          <Button type="submit" variant="contained" size="large" fullWidth loading={form.formState.isSubmitting}>
            {t('auth.signIn.submit')}
          </Button>
          <Divider>{t('auth.signIn.or')}</Divider>
          <Button variant="outlined" size="large" fullWidth onClick={() => void sendMagicLink()} loading={sendingMagicLink}>
            {t('auth.signIn.magicLink')}
          </Button>
          {/* Pressing it keeps the focus where it is, so the email field is not left (and checked) on the way. */}
          <Button variant="outlined" size="large" fullWidth onMouseDown={(e) => e.preventDefault()} onClick={() => void passkeySignIn()} loading={usingPasskey}>
            {t('auth.signIn.passkey')}
          </Button>
          <Typography color="text.secondary" sx={{ textAlign: 'center' }}>
            {t('auth.signIn.noAccount')}{' '}
            <Link component={RouterLink} to="/account/create">
              {t('auth.signIn.createAccount')}
            </Link>
          </Typography>
        </Stack>
      </Box>
    </>
  );
}
