import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, matchPath, Navigate, Route, Routes, useLocation } from 'react-router';
import type { CurrentUser } from '../../src/domain/auth/schemas';
import { useSession } from '../../src/session';
import { PageHeading } from '../../src/ui/PageHeading';
import AccountSettings from './AccountSettings';
import AuthenticationSettings from './AuthenticationSettings';
import DataSettings from './DataSettings';
import '../../src/profileI18n';

/** SPEC §2: the children of /profile, in menu order. */
export const PROFILE_SECTIONS: { path: string; labelKey: string; Page: ComponentType<{ user: CurrentUser }> }[] = [
  { path: 'account', labelKey: 'profile.nav.account', Page: AccountSettings },
  { path: 'authentication', labelKey: 'profile.nav.authentication', Page: AuthenticationSettings },
  { path: 'data', labelKey: 'profile.nav.data', Page: DataSettings },
];

const DEFAULT_SECTION = '/profile/account';

/**
 * Profile (SPEC §2 logged-in routes): /profile goes to /profile/account; the sections are a side
 * menu on wide screens and tabs across the top on phones.
 */
export default function ProfilePage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const theme = useTheme();
  // Measured on the first render, so the tab indicator never animates from the other orientation.
  const wide = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const section = matchPath('/profile/:section/*', pathname)?.params.section;
  const selected = PROFILE_SECTIONS.some((s) => s.path === section) ? section : false;
  const { user } = useSession();
  return (
    <>
      <PageHeading titleKey="titles.profile" />
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: '220px minmax(0, 1fr)' }, gap: { xs: 2, md: 4 }, alignItems: 'start' }}>
        <Box component="nav" aria-label={t('profile.nav.label')} sx={{ borderBottom: { xs: 1, md: 0 }, borderColor: 'divider' }}>
          <Tabs
            value={selected}
            orientation={wide ? 'vertical' : 'horizontal'}
            variant={wide ? 'standard' : 'fullWidth'}
            sx={{ '& .MuiTab-root': { alignItems: wide ? 'flex-start' : 'center', minHeight: 44, px: { xs: 1, md: 2 }, ...(wide && { maxWidth: 'none' }) }, ...(wide && { borderRight: 1, borderColor: 'divider' }) }}
          >
            {PROFILE_SECTIONS.map((s) => (
              <Tab key={s.path} value={s.path} label={t(s.labelKey)} component={RouterLink} to={`/profile/${s.path}`} />
            ))}
          </Tabs>
        </Box>
        <Box sx={{ minWidth: 0 }}>
          <Routes>
            <Route index element={<Navigate to={DEFAULT_SECTION} replace />} />
            {PROFILE_SECTIONS.map(({ path, Page }) => (
              // SPEC §4: without a signed-in user the sections fail with 'Session timed out.'
              <Route
                key={path}
                path={path}
                element={
                  user ? (
                    // Keyed by user, so a switch of account never shows the previous person's values.
                    <Page key={user._id} user={user} />
                  ) : (
                    <Alert severity="error" role="alert">
                      {t('errors.sessionTimedOut')}
                    </Alert>
                  )
                }
              />
            ))}
            <Route path="*" element={<Navigate to={DEFAULT_SECTION} replace />} />
          </Routes>
        </Box>
      </Box>
    </>
  );
}
