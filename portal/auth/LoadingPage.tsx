import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { wizard } from '../wizard/store';
import { isSignedIn, peekReturnRoute, session, takeReturnRoute } from '../../src/session';
import { usersApi } from '../../dataProvider/users';
import { loadingTarget } from './loadingTarget';

/** A user fetched this recently (by the page that sent us here) is not fetched again. */
const FRESH_MS = 5_000;

/**
 * Where sign-in, sign-up and guarded routes land (SPEC §2): fetches the user, then moves on to
 * verification, the page the user was heading for, or the dashboard; without a session, sign-in.
 */
export default function LoadingPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { search } = useLocation();
  useEffect(() => {
    const query = new URLSearchParams(search);
    const referrer = query.get('referrer');
    const now = session.getSnapshot();
    const fresh = isSignedIn(now) && Date.now() - now.fetchedAt < FRESH_MS;
    const manual = referrer === 'login' || referrer === 'verification';
    let live = true;
    void (fresh ? Promise.resolve(now.user) : session.refresh(manual ? 'manual' : 'auto')).then(async (user) => {
      // The pre-login order: this device's marker, or the one kept with the account at sign-up
      // (the verification link opened elsewhere). Asked only of a user ready to order.
      const ready = user && !user.mustChangePassword && user.onboarding !== 'company' && user.onboarding !== 'verify' && referrer !== 'verification';
      const completeSetup = wizard.peekCompleteSetup() !== null || (ready ? (await usersApi.pendingOrder().catch(() => null)) !== null : false);
      if (live) navigate(loadingTarget(user, { referrer, cid: query.get('cid'), pid: query.get('pid') }, takeReturnRoute, peekReturnRoute, completeSetup), { replace: true });
    });
    return () => {
      live = false;
    };
  }, [search, navigate]);
  return (
    <Box role="status" sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 2 }}>
      <CircularProgress aria-hidden />
      <Typography color="text.secondary">{t('pages.loading.message')}</Typography>
    </Box>
  );
}
