import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { apiFetch } from '../../dataProvider/httpClient';

/**
 * Where sign-in and guarded routes land (SPEC §2): asks who is signed in, then moves on — to the
 * dashboard when there is a session, otherwise to sign-in.
 */
export default function LoadingPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useEffect(() => {
    let live = true;
    apiFetch('/auth/me')
      .then(() => live && navigate('/dashboard', { replace: true }))
      .catch(() => live && navigate('/account/signin', { replace: true }));
    return () => {
      live = false;
    };
  }, [navigate]);
  return (
    <Box role="status" sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 2 }}>
      <CircularProgress aria-hidden />
      <Typography color="text.secondary">{t('pages.loading.message')}</Typography>
    </Box>
  );
}
