import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { authApi } from '../../dataProvider/auth';
import { session } from '../../src/session';
import { AuthHeading } from './AuthHeading';
import { once } from './once';

/**
 * Magic-link sign-in (SPEC §2, §4): spends the mailed token, refreshes the user and goes on to
 * /loading; a missing token goes to sign-in, a bad one to sign-in with the invalid-link notice.
 */
export default function MagicLinkPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const token = useSearchParams()[0].get('token');

  useEffect(() => {
    if (!token) {
      navigate('/account/signin', { replace: true });
      return;
    }
    let live = true;
    once(`magic-link:${token}`, () => authApi.signInWithMagicLink(token)).then(
      async () => {
        await session.refresh('manual');
        if (live) navigate('/loading?referrer=login', { replace: true });
      },
      () => live && navigate('/account/signin?error=magic-link-invalid', { replace: true }),
    );
    return () => {
      live = false;
    };
  }, [token, navigate]);

  return (
    <>
      <AuthHeading title={t('titles.magicLink')} />
      <Stack direction="row" spacing={2} role="status" sx={{ alignItems: 'center' }}>
        <CircularProgress size={24} aria-hidden />
        <Typography color="text.secondary">{t('auth.magicLink.wait')}</Typography>
      </Stack>
    </>
  );
}
