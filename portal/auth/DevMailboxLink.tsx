import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { clientConfig } from '../../src/clientConfig';
import { DEV_MAILBOX_PATH } from '../../src/domain/constants';

/**
 * Where the mail went when no mail server is set up (a demo or development without SMTP_URL): the
 * product's development mailbox, in a new tab so this screen stays. Nothing in production. Plain
 * text and a link: the front door's pages that show it stay within their script budget.
 */
export function DevMailboxLink({ enabled = clientConfig.devMailbox === true }: { enabled?: boolean }) {
  const { t } = useTranslation();
  if (!enabled) return null;
  return (
    <Typography variant="body2" sx={{ mt: 2, p: 1.5, borderRadius: 1, bgcolor: 'action.hover' }}>
      {t('auth.mailSent.devMailbox')}{' '}
      <Link href={DEV_MAILBOX_PATH} target="_blank" rel="noopener" sx={{ fontWeight: 600 }}>
        {t('auth.mailSent.openDevMailbox')}
      </Link>
    </Typography>
  );
}
