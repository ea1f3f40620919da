import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useResourceDefinitions } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import './adminI18n';

/**
 * The admin area's tabs: one per registered resource with a list (a page-only one like taskDetail
 * has none), named `resources.<name>.name`. Read from react-admin's registry rather than
 * `resources.ts`, whose screens render this nav: importing it would make a circle.
 */
export function AdminNav() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const tabs = Object.values(useResourceDefinitions())
    .filter((r) => r.hasList && r.name.startsWith('admin/'))
    .map((r) => r.name.slice('admin/'.length));
  const current = tabs.find((name) => pathname === `/admin/${name}` || pathname.startsWith(`/admin/${name}/`)) ?? false;
  return (
    <Tabs value={current} aria-label={t('admin.sections')} variant="scrollable" allowScrollButtonsMobile sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}>
      {tabs.map((name) => (
        <Tab key={name} value={name} label={t(`resources.${name}.name`)} component={RouterLink} to={`/admin/${name}`} />
      ))}
    </Tabs>
  );
}
