import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { safeRedirectTarget, takeServerLink } from './redirectTarget';

/** /redirect?server_url=… (SPEC §2): leaves for the given address when it is a safe one. */
export default function RedirectPage() {
  const { t } = useTranslation();
  // Read once per visit: a server sign-in link handed over by this tab opens once.
  const [handedOver] = useState(takeServerLink);
  const target = safeRedirectTarget(useSearchParams()[0].get('server_url'), window.location.origin, handedOver);
  useEffect(() => {
    if (target) window.location.assign(target);
  }, [target]);
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 2, px: 3 }}>
      {target ? (
        <Box role="status" sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2 }}>
          <CircularProgress aria-hidden />
          <Typography color="text.secondary">{t('pages.redirect.message')}</Typography>
        </Box>
      ) : (
        <>
          <Alert severity="error" role="alert">
            {t('pages.redirect.invalid')}
          </Alert>
          <Button variant="contained" component={RouterLink} to="/dashboard">
            {t('auth.redirect.dashboard')}
          </Button>
        </>
      )}
    </Box>
  );
}
