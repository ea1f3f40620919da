import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import './adminI18n';
import { ADMIN_RESOURCES } from './resources';

/** The admin area's tabs: one per listed resource of `resources.ts` (a page-only one like taskDetail has none), named `resources.<name>.name`. */
export function AdminNav() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const tabs = ADMIN_RESOURCES.filter((r) => r.list);
  const current = tabs.find((r) => pathname === `/admin/${r.name}` || pathname.startsWith(`/admin/${r.name}/`))?.name ?? false;
  return (
    <Tabs value={current} aria-label={t('admin.sections')} variant="scrollable" allowScrollButtonsMobile sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}>
      {tabs.map((r) => (
        <Tab key={r.name} value={r.name} label={t(`resources.${r.name}.name`)} component={RouterLink} to={`/admin/${r.name}`} />
      ))}
    </Tabs>
  );
}
