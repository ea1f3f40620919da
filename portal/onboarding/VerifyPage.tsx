import MarkEmailUnreadOutlined from '@mui/icons-material/MarkEmailUnreadOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { authApi } from '../../dataProvider/auth';
import { isSignedIn, session, useSession } from '../../src/session';
import { failureMessage } from '../../src/ui/form/messages';
import { useFormSubmit } from '../../src/ui/form/useFormSubmit';
import { AuthHeading } from '../auth/AuthHeading';
import { once } from '../auth/once';
import { Waiting } from '../auth/Waiting';
import { DevMailboxLink } from '../auth/DevMailboxLink';

/** The mailed link: verifies, refreshes the user and moves on; works without a session. */
function VerifyToken({ token }: { token: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    once(`verify:${token}`, () => authApi.verify(token)).then(
      async (user) => {
        // No user: the address is verified, but the account's second factor is asked at sign-in.
        if (!user) {
          if (live) navigate('/account/signin?ref=verified', { replace: true });
          return;
        }
        await session.refresh('manual');
        if (live) navigate('/loading?referrer=login', { replace: true });
      },
      (error: unknown) => live && setFailure(failureMessage(error, t)),
    );
    return () => {
      live = false;
    };
  }, [token, navigate, t]);
  if (!failure) return <Waiting text={t('auth.verify.verifying')} />;
  return (
    <Stack spacing={2}>
      <Alert severity="error" role="alert">
        {failure}
      </Alert>
      <Typography color="text.secondary">{t('auth.verify.failedHint')}</Typography>
      <Link component={RouterLink} to="/loading">
        {t('auth.verify.continue')}
      </Link>
    </Stack>
  );
}

/** Without a token: who is waiting for which mail, with a resend button (SPEC §2 onboarding). */
function VerifyState() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const current = useSession();
  const [notice, setNotice] = useState<{ severity: 'success' | 'error'; text: string } | null>(null);
  // A lost session: the shell sends the user to sign-in with the notice. A 429 carries the API's 'wait 2 minutes' message.
  const { run, failure: resendFailure, submitting: sending } = useFormSubmit({ intercept: session.handleError });

  // The state needs the signed-in user; without one, sign in first.
  useEffect(() => {
    let live = true;
    void session.current().then((user) => {
      if (live && !user) navigate('/account/signin', { replace: true });
    });
    return () => {
      live = false;
    };
  }, [navigate]);

  const user = isSignedIn(current) ? current.user : null;
  if (!user) return <Waiting text={t('pages.loading.message')} />;

  const resend = async () => {
    setNotice(null);
    if (await run(() => authApi.resendVerification())) setNotice({ severity: 'success', text: t('auth.verify.resent', { email: user.email }) });
  };
  const signOut = () => {
    navigate('/account/signin');
    void session.signOut();
  };

  if (user.emailVerified) {
    return (
      <Stack spacing={2}>
        <Alert severity="success">{t('auth.verify.done')}</Alert>
        <Button variant="contained" size="large" component={RouterLink} to="/loading">
          {t('auth.verify.continue')}
        </Button>
      </Stack>
    );
  }
  return (
    <Stack spacing={2}>
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'flex-start' }}>
        <MarkEmailUnreadOutlined color="primary" sx={{ fontSize: 40 }} aria-hidden />
        <Typography>{t('auth.verify.sent', { email: user.email })}</Typography>
      </Box>
      {resendFailure && (
        <Alert severity="error" role="alert">
          {resendFailure}
        </Alert>
      )}
      {notice && (
        <Alert severity={notice.severity} role={notice.severity === 'error' ? 'alert' : 'status'}>
          {notice.text}
        </Alert>
      )}
      <Button variant="contained" size="large" fullWidth onClick={() => void resend()} loading={sending}>
        {t('auth.verify.resend')}
      </Button>
      <DevMailboxLink />
      <Typography color="text.secondary" variant="body2" sx={{ textAlign: 'center' }}>
        {t('auth.verify.wrongAccount')}{' '}
        <Link component="button" type="button" variant="body2" onClick={signOut} sx={{ verticalAlign: 'baseline' }}>
          {t('auth.verify.signOut')}
        </Link>
      </Typography>
    </Stack>
  );
}

/** Verify account (SPEC §2 onboarding, account/verify): the mailed link, or the waiting state. */
export default function VerifyPage() {
  const { t } = useTranslation();
  const token = useSearchParams()[0].get('token');
  return (
    <>
      <AuthHeading title={t('titles.verify')} />
      {token ? <VerifyToken key={token} token={token} /> : <VerifyState />}
    </>
  );
}
