import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import { useTranslation } from 'react-i18next';
import { clientConfig } from '../../src/clientConfig';
import { DEV_MAILBOX_PATH } from '../../src/domain/clientConfig/schemas';

/**
 * Where the mail went when no mail server is set up (a demo or development without SMTP_URL): the
 * product's development mailbox, in a new tab so this screen stays. Nothing in production.
 */
export function DevMailboxLink({ enabled = clientConfig.devMailbox === true }: { enabled?: boolean }) {
  const { t } = useTranslation();
  if (!enabled) return null;
  return (
    <Alert severity="info" sx={{ mt: 2 }}>
      {t('auth.mailSent.devMailbox')}{' '}
      <Link href={DEV_MAILBOX_PATH} target="_blank" rel="noopener">
        {t('auth.mailSent.openDevMailbox')}
      </Link>
    </Alert>
  );
}
