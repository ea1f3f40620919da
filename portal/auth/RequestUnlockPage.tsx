import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { authApi } from '../../dataProvider/auth';
import { AuthHeading } from './AuthHeading';
import { BackToLogin } from './BackToLogin';
import { EmailRequestForm } from './EmailRequestForm';
import { MailSent } from './MailSent';

const PAGE = '/request-unlock';

/** Unlock request (SPEC §2): the email step, then the mail-sent step (query mailSent). */
export default function RequestUnlockPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const sentTo = (useLocation().state as { email?: string } | null)?.email ?? null;
  const mailSent = params.has('mailSent');
  return (
    <>
      <AuthHeading title={t('titles.requestUnlock')} intro={mailSent ? undefined : t('auth.unlock.intro')} />
      {mailSent ? (
        <MailSent email={sentTo} onRetry={() => navigate(PAGE)} />
      ) : (
        <EmailRequestForm
          submitLabel={t('auth.unlock.submit')}
          send={authApi.requestUnlock}
          onSent={(email) => navigate(`${PAGE}?mailSent`, { state: { email } })}
        />
      )}
      <Box>
        <BackToLogin to="/account/signin" />
      </Box>
    </>
  );
}
