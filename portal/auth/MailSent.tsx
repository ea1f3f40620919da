import MarkEmailReadOutlined from '@mui/icons-material/MarkEmailReadOutlined';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { DevMailboxLink } from './DevMailboxLink';

/**
 * The 'check your mail' step; the address is only known in the tab that sent the request. `body`
 * replaces the default text where a page has more to say (sign-up).
 */
export function MailSent({ email, onRetry, body }: { email: string | null; onRetry: () => void; body?: string }) {
  const { t } = useTranslation();
  return (
    <Box role="status">
      <MarkEmailReadOutlined color="primary" sx={{ fontSize: 48, mb: 1 }} aria-hidden />
      <Typography variant="h2" component="p" sx={{ mb: 1 }}>
        {t('auth.mailSent.heading')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {body ?? (email ? t('auth.mailSent.body', { email }) : t('auth.mailSent.bodyNoEmail'))}
      </Typography>
      <Typography color="text.secondary" variant="body2">
        {t('auth.mailSent.notArrived')}{' '}
        <Link component="button" type="button" variant="body2" onClick={onRetry} sx={{ verticalAlign: 'baseline' }}>
          {t('auth.mailSent.retry')}
        </Link>
      </Typography>
      <DevMailboxLink />
    </Box>
  );
}
