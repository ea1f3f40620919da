import ArrowBack from '@mui/icons-material/ArrowBack';
import Link from '@mui/material/Link';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';

/** The back-to-login link of the forgot-password and unlock pages. */
export function BackToLogin({ to }: { to: string }) {
  const { t } = useTranslation();
  return (
    <Link component={RouterLink} to={to} sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, mt: 3 }}>
      <ArrowBack fontSize="small" aria-hidden />
      {t('auth.backToLogin')}
    </Link>
  );
}
