import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useAnalytics } from '../context';
import { roleOf } from '../members/roles';
import { ScreenHeading } from '../ScreenHeading';
import { ApiKeyForm } from './ApiKeyForm';
import { PasswordChangeForm } from './PasswordChangeForm';

/** User settings and profile: who the member is, their password and their API key. */
export function UserSettingsPage() {
  const { t } = useTranslation();
  const { session } = useAnalytics();
  const { member } = session;
  const section = (titleKey: string, body: React.ReactNode) => (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography variant="h2" component="h2" sx={{ fontSize: '1.125rem', mb: 2 }}>
        {t(titleKey)}
      </Typography>
      {body}
    </Paper>
  );
  return (
    <>
      <ScreenHeading titleKey="analytics.settings.title" />
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' }, alignItems: 'start' }}>
        {section(
          'analytics.settings.profile',
          <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 1 }}>
            {[
              [t('analytics.members.fullName'), member.fullName],
              [t('analytics.members.username'), member.username],
              [t('analytics.members.email'), member.email],
              [t('analytics.members.role'), t(`analytics.members.roles.${roleOf(member)}`)],
            ].map(([label, value]) => (
              <Box key={label} sx={{ display: 'contents' }}>
                <Typography component="dt" color="text.secondary">
                  {label}
                </Typography>
                <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
                  {value}
                </Typography>
              </Box>
            ))}
          </Box>,
        )}
        {section('analytics.settings.password', <PasswordChangeForm />)}
        {section('analytics.settings.apiKey', <ApiKeyForm />)}
      </Box>
    </>
  );
}
