import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/** SignIn (SPEC §2 sign-up screens). The form arrives with the accounts work. */
export default function SignInPage() {
  const { t } = useTranslation();
  return (
    <>
      <Typography variant="h1" sx={{ mb: 1 }}>
        {t('titles.signIn')}
      </Typography>
      <Typography color="text.secondary">{t('pages.placeholder.signInSoon')}</Typography>
    </>
  );
}
