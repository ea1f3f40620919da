import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { useAnalytics } from './context';

interface Item {
  to: string;
  key: string;
  /** Global admins only (SPEC §6: users management and tokens are theirs). */
  globalAdmin?: boolean;
}

const SECTIONS: { key: string; items: Item[] }[] = [
  {
    key: 'analytics.nav.events',
    items: [
      { to: 'events/overview', key: 'analytics.nav.overview' },
      { to: 'events/all', key: 'analytics.nav.allEvents' },
      { to: 'events/top', key: 'analytics.nav.topEvents' },
      { to: 'events/groups', key: 'analytics.nav.groups' },
    ],
  },
  {
    key: 'analytics.nav.analytics',
    items: [{ to: 'views', key: 'analytics.nav.views' }],
  },
  {
    key: 'analytics.nav.management',
    items: [
      { to: 'apps', key: 'analytics.nav.apps' },
      { to: 'members', key: 'analytics.nav.members', globalAdmin: true },
      { to: 'tokens', key: 'analytics.nav.tokens' },
      { to: 'reports', key: 'analytics.nav.reports' },
      { to: 'app-users', key: 'analytics.nav.appUsers' },
      { to: 'manage/configurations/api', key: 'analytics.nav.configurations' },
      { to: 'jobs', key: 'analytics.nav.jobs' },
      { to: 'versions', key: 'analytics.nav.versions' },
      { to: 'settings', key: 'analytics.nav.settings' },
    ],
  },
];

/** The dashboard's section menu. */
export function AnalyticsNav() {
  const { t } = useTranslation();
  const { session, basePath } = useAnalytics();
  const { pathname } = useLocation();
  return (
    <>
      {SECTIONS.map((section) => (
        <List key={section.key} dense subheader={<ListSubheader disableSticky>{t(section.key)}</ListSubheader>}>
          {section.items
            .filter((item) => !item.globalAdmin || session.member.globalAdmin)
            .map((item) => {
              const to = `${basePath}/${item.to}`;
              const current = pathname === to || pathname.startsWith(`${to}/`);
              return (
                <ListItemButton key={item.to} component={RouterLink} to={to} selected={current} aria-current={current ? 'page' : undefined}>
                  <ListItemText primary={t(item.key)} />
                </ListItemButton>
              );
            })}
        </List>
      ))}
    </>
  );
}
