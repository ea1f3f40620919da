import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { lazy, startTransition, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { companiesApi } from '../../dataProvider/companies';
import { ApiError } from '../../dataProvider/httpClient';
import { COMPANY_ROLES } from '../../src/domain/constants';
import { hashAddress } from '../../src/hashAddress';
import { isSignedIn, saveReturnRoute, session, useSession } from '../../src/session';
import { ReadOnlyField } from '../../src/ui/form/ReadOnlyField';
import { AuthHeading } from './AuthHeading';
import { once } from './once';
import type { Invitation } from './invitation';
import { INTRO_ATTRIBUTE, INVITED_PATH, invitationIntro, tokenOf, type FirstScreenInvitationCheck } from './invitationFirstScreen';
import { signUpFailure } from './signUpFailure';
import { Waiting } from './Waiting';

// The new member's form loads while the invitation is checked (what the page shows first). A
// failed load is shown, like a page's, when the form renders; an existing user never needs it.
const invitedForm = import('./InvitedForm');
invitedForm.catch(() => undefined);
const InvitedForm = lazy(() => invitedForm);

/**
 * The check of the address's token starts before this page's first render: the invitation's
 * details are the page's largest text. The first-screen script usually sent it already
 * (invitationFirstScreen.ts); its reply is read here as the API's. Otherwise it starts as soon as
 * this module runs. The page's first check of that token takes it (and StrictMode's second run of
 * the same effect); any later one asks again.
 */
let early: { token: string; check: Promise<Invitation>; first?: FirstScreenInvitationCheck } | null = (() => {
  if (typeof location === 'undefined') return null;
  const [path, query = ''] = hashAddress().split('?');
  const token = path === INVITED_PATH ? tokenOf(new URLSearchParams(query)) : '';
  if (!token) return null;
  const first = window.beaconInvitationCheck?.token === token ? window.beaconInvitationCheck : undefined;
  const check = first
    ? companiesApi.checkInvited(token, () => first.reply.then(({ status, text }) => new Response(text || null, { status })))
    : companiesApi.checkInvited(token);
  check.catch(() => undefined);
  return { token, check, first };
})();
function checkInvited(token: string): Promise<Invitation> {
  if (early?.token !== token) return once(`check-invited:${token}`, () => companiesApi.checkInvited(token));
  const { check } = early;
  void Promise.resolve().then(() => (early = null));
  return check;
}
/**
 * The invitation whose intro the first screen shows, if its check answered before this render. The
 * page takes the first screen over here (App.tsx hydrates it): its first render makes what the
 * first screen shows, and the first-screen script writes no more into it.
 */
function takeFirstScreen(token: string): Invitation | null {
  if (early?.token !== token || !early.first) return null;
  early.first.taken = true;
  return early.first.shown ?? null;
}

const INVALID = '/account/signin?error=invalid-invitation';
const SIGN_IN = '/account/signin';
/** How long 'Invitation accepted' stays before sign-in opens by itself. */
export const ACCEPTED_REDIRECT_MS = 3000;

/** Sign-in with the invited email already filled in. */
const signInAs = (email: string, query = '') => `${SIGN_IN}?${query}${query ? '&' : ''}email=${encodeURIComponent(email)}`;

/** After joining: a signed-in member goes on into the product, anyone else to sign-in, the invited email filled in. */
function Accepted({ company, email }: { company: string; email: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [next] = useState(() => (isSignedIn(session.getSnapshot()) ? '/loading?referrer=login' : signInAs(email)));
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
        {t(next.startsWith(SIGN_IN) ? 'invited.signIn' : 'invited.continue')}
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
    navigate(signInAs(invitation.email, 'ref=invitation-sign-in'));
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

/**
 * Invited sign-up (SPEC §2, §4, §5): the token from the query is checked on load (a missing or
 * refused one goes to sign-in with the invalid-invitation notice); accepting shows 'Invitation
 * accepted', then sign-in.
 */
export default function InvitedSignUpPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const token = tokenOf(useSearchParams()[0]);
  // The intro the first screen shows stays; its form follows the check's answer, as the first
  // screen's waiting line did.
  const [shown] = useState(() => takeFirstScreen(token));
  const [invitation, setInvitation] = useState<Invitation | null>(null);
  const [loadFailure, setLoadFailure] = useState<string | null>(null);
  const [accepted, setAccepted] = useState(false);

  useEffect(() => {
    if (!token) {
      navigate(INVALID, { replace: true });
      return;
    }
    let live = true;
    checkInvited(token).then(
      // In the background: the form is the page's largest render, and a phone's taps come first.
      (found) => live && startTransition(() => setInvitation(found)),
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

  // Always in place, empty while the token is checked: the first screen fills the same element.
  const introOf = invitation ?? shown;
  const intro = <span {...{ [INTRO_ATTRIBUTE]: '' }}>{introOf ? invitationIntro(introOf, (key, values) => t(key, values), COMPANY_ROLES) : ''}</span>;
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
    body = <Accepted company={invitation.companyName} email={invitation.email} />;
  } else {
    body = invitation.existingUser ? (
      <ExistingAccount token={token} invitation={invitation} onAccepted={() => setAccepted(true)} />
    ) : (
      <Suspense fallback={<Waiting text={t('invited.checking')} />}>
        <InvitedForm token={token} invitation={invitation} onAccepted={() => setAccepted(true)} />
      </Suspense>
    );
  }
  return (
    <>
      <AuthHeading title={t('titles.invited')} intro={intro} />
      {body}
    </>
  );
}
