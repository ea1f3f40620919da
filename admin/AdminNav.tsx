import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';

const SECTIONS = [
  { to: '/admin/companies', key: 'nav.companies' },
  { to: '/admin/users', key: 'adminUsers.title' },
  { to: '/admin/appProfileReviews', key: 'adminReviews.title' },
];

/** The admin area's sections (SPEC §2 admin routes); more arrive with their resources. */
export function AdminNav() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const current = SECTIONS.find((s) => pathname.startsWith(s.to))?.to ?? false;
  return (
    <Tabs value={current} aria-label={t('nav.adminMode')} sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}>
      {SECTIONS.map((s) => (
        <Tab key={s.to} value={s.to} label={t(s.key)} component={RouterLink} to={s.to} />
      ))}
    </Tabs>
  );
}
