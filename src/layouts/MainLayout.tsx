import AccountCircle from '@mui/icons-material/AccountCircle';
import Check from '@mui/icons-material/Check';
import ExpandMore from '@mui/icons-material/ExpandMore';
import Handshake from '@mui/icons-material/Handshake';
import Logout from '@mui/icons-material/Logout';
import Settings from '@mui/icons-material/Settings';
import Alert from '@mui/material/Alert';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Toolbar from '@mui/material/Toolbar';
import { Suspense, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, matchPath, Navigate, useLocation, useNavigate } from 'react-router';
import { clientConfig } from '../clientConfig';
import { selection, useSelection, type CompanyRef, type ProjectRef } from '../companySelection';
import '../serversI18n';
import { session, useSession } from '../session';
import { useCompanyRole } from '../companyRole';
import { may, type AccessLevel } from '../domain/companies/access';
import { DialogHost } from '../ui/dialog/DialogHost';
import { showToast } from '../ui/toast/toastStore';
import { Footer } from './Footer';
import { CheckInWarning } from './CheckInWarning';
import { ViewAsBanner } from './ViewAsBanner';
import { PastDueBanner } from './PastDueBanner';
import { SessionWatch } from './SessionWatch';
import { SupportChat } from './SupportChat';
import { ProductLogo } from './ProductLogo';

// Each section also answers in the project-scoped form /c/{cid}/p/{pid}/... (SPEC §2).
// `level`: what the selected company's role must allow (ACCESS_LEVELS); the billing role has no servers.
const NAV: { to: string; key: string; match: string[]; level: AccessLevel }[] = [
  { to: '/dashboard', key: 'nav.dashboard', match: ['/dashboard', '/c/:cid/p/:pid/dashboard'], level: 'servers' },
  { to: '/deployments', key: 'nav.deployments', match: ['/deployments/*', '/c/:cid/p/:pid/deployments/*'], level: 'servers' },
  { to: '/management', key: 'nav.management', match: ['/management/*', '/c/:cid/p/:pid/management/*'], level: 'member' },
];
/** Where a role without the servers goes instead of the dashboard: Billing. */
const BILLING_HOME = '/management/billing';

/** The user menu (SPEC §2): company switcher, profile settings, logout. */
function UserMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { companies, company: current, projects, projectId } = useSelection();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  const switchTo = (company: CompanyRef) => {
    close();
    if (company._id === current?._id || !selection.select(company._id)) return;
    showToast({ text: t('nav.switchedTo', { name: company.name }), variant: 'successful' });
    // A project-scoped address names the old company; its unscoped form follows the selection.
    const scoped = matchPath('/c/:cid/p/:pid/*', pathname);
    if (scoped) navigate(`/${scoped.params['*'] ?? 'dashboard'}`);
  };
  const switchProject = (project: ProjectRef) => {
    close();
    if (!current || project._id === projectId || !selection.select(current._id, project._id)) return;
    showToast({ text: t('nav.switchedTo', { name: project.name }), variant: 'successful' });
    const scoped = matchPath('/c/:cid/p/:pid/*', pathname);
    if (scoped) navigate(`/c/${encodeURIComponent(current._id)}/p/${encodeURIComponent(project._id)}/${scoped.params['*'] ?? 'dashboard'}`);
  };
  // SPEC §2: logout returns to '/'. The shell's guard knows a signed-out page is no visit to remember.
  const logout = () => {
    close();
    navigate('/');
    void session.signOut();
  };
  return (
    <>
      <Button
        color="inherit"
        aria-label={t('nav.userMenu')}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(e) => setAnchor(e.currentTarget)}
        sx={{ minWidth: 0, px: { xs: 0.5, md: 1.5 }, gap: 1, flexShrink: 0 }}
      >
        <AccountCircle />
        {current && (
          <Box component="span" data-testid="current-company" sx={{ display: { xs: 'none', md: 'inline' }, maxWidth: 220, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
            {current.name}
          </Box>
        )}
        <ExpandMore fontSize="small" sx={{ display: { xs: 'none', md: 'inline-block' } }} />
      </Button>
      <Menu
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { minWidth: 240, maxWidth: 'calc(100vw - 32px)' } } }}
      >
        {companies.length > 0 && <ListSubheader>{t('nav.companies')}</ListSubheader>}
        {companies.map((c) => {
          const checked = c._id === current?._id;
          return (
            <MenuItem key={c._id} selected={checked} aria-current={checked ? 'true' : undefined} onClick={() => switchTo(c)}>
              <ListItemIcon>{checked && <Check fontSize="small" color="primary" />}</ListItemIcon>
              <ListItemText slotProps={{ primary: { noWrap: true } }}>{c.name}</ListItemText>
            </MenuItem>
          );
        })}
        {companies.length > 0 && <Divider />}
        {projects && projects.length > 0 && <ListSubheader>{t('nav.projects')}</ListSubheader>}
        {projects?.map((p) => {
          const checked = p._id === projectId;
          return (
            <MenuItem key={p._id} selected={checked} aria-current={checked ? 'true' : undefined} onClick={() => switchProject(p)} data-testid="project-option">
              <ListItemIcon>{checked && <Check fontSize="small" color="primary" />}</ListItemIcon>
              <ListItemText slotProps={{ primary: { noWrap: true } }}>{p.name}</ListItemText>
            </MenuItem>
          );
        })}
        {projects && projects.length > 0 && <Divider />}
        <MenuItem component={RouterLink} to="/profile/account" onClick={close}>
          <ListItemIcon>
            <Settings fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('nav.profileSettings')}</ListItemText>
        </MenuItem>
        {clientConfig.affiliateUrl && (
          <MenuItem component="a" href={clientConfig.affiliateUrl} target="_blank" rel="noopener noreferrer" onClick={close}>
            <ListItemIcon>
              <Handshake fontSize="small" />
            </ListItemIcon>
            <ListItemText>{t('nav.affiliate')}</ListItemText>
          </MenuItem>
        )}
        <MenuItem onClick={logout}>
          <ListItemIcon>
            <Logout fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('nav.logout')}</ListItemText>
        </MenuItem>
      </Menu>
    </>
  );
}

/** Main layout (SPEC §2): header with top navigation and user menu, admin banner, content, footer. */
export function MainLayout({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  // The session store, not react-admin's cached identity: a refreshed user shows at once.
  const { user } = useSession();
  const inAdmin = Boolean(matchPath('/admin/*', pathname));
  const role = useCompanyRole();
  const nav = NAV.filter((item) => role === null || may(role, item.level));
  // A billing member reaching a servers page (the landing page, an old link) is shown Billing instead.
  const serversPage = NAV.some((item) => item.level === 'servers' && item.match.some((pattern) => matchPath(pattern, pathname)));
  if (role !== null && serversPage && !may(role, 'servers')) return <Navigate to={BILLING_HOME} replace />;
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}>
      <AppBar position="sticky" color="inherit" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider' }}>
        {/* In the admin area a phone has no room for the mode's chip beside the navigation: the navigation takes a row of its own. */}
        <Toolbar sx={{ gap: { xs: 0.5, sm: 1, md: 3 }, px: { xs: 1.5, sm: 2 }, ...(inAdmin && { flexWrap: { xs: 'wrap', sm: 'nowrap' }, rowGap: 0, pt: { xs: 1, sm: 0 } }) }}>
          <Link component={RouterLink} to={role === null || may(role, 'servers') ? '/dashboard' : BILLING_HOME} underline="none" aria-label={t('nav.dashboard')}>
            <ProductLogo compact />
          </Link>
          {inAdmin && <Chip label={t('nav.adminMode')} color="success" size="small" sx={{ mr: { xs: 'auto', sm: 0 } }} />}
          <Box component="nav" sx={{ display: 'flex', gap: { xs: 0, sm: 0.5 }, flex: 1, minWidth: 0, overflowX: 'auto', ...(inAdmin && { order: { xs: 1, sm: 0 }, flexBasis: { xs: '100%', sm: 'auto' } }) }}>
            {nav.map((item) => {
              const active = item.match.some((pattern) => matchPath(pattern, pathname));
              return (
                <Button
                  key={item.to}
                  component={RouterLink}
                  to={item.to}
                  color={active ? 'primary' : 'inherit'}
                  aria-current={active ? 'page' : undefined}
                  // Never squeezed into overlapping words: a nav too wide for a phone scrolls instead.
                  sx={{ flexShrink: 0, minWidth: 0, px: { xs: 0.5, sm: 0.75, md: 1.5 }, fontSize: { xs: '0.8125rem', sm: '0.875rem' } }}
                >
                  {t(item.key)}
                </Button>
              );
            })}
          </Box>
          <UserMenu />
        </Toolbar>
      </AppBar>
      {user?.isAdmin && (
        <Alert severity="success" variant="filled" icon={false} sx={{ borderRadius: 0, justifyContent: 'center' }}>
          {t('nav.adminBanner')}{' '}
          <Link component={RouterLink} to="/admin/companies" color="inherit" sx={{ fontWeight: 700 }}>
            {t('nav.adminBannerLink')}
          </Link>
        </Alert>
      )}
      <ViewAsBanner />
      {user && <PastDueBanner />}
      <CheckInWarning />
      <SessionWatch />
      <SupportChat />
      <Box component="main" id="main" sx={{ flex: 1, width: '100%', maxWidth: 1280, mx: 'auto', px: { xs: 2, md: 4 }, py: 4 }}>
        {/* Screens load with their route (src/MainApp.tsx): the layout stays while one does. */}
        <Suspense fallback={null}>{children}</Suspense>
      </Box>
      <Footer />
      <DialogHost />
    </Box>
  );
}
