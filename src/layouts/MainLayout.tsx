import AccountCircle from '@mui/icons-material/AccountCircle';
import Alert from '@mui/material/Alert';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Toolbar from '@mui/material/Toolbar';
import { useState, type ReactNode } from 'react';
import { useGetIdentity } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, matchPath, useLocation, useNavigate } from 'react-router';
import { session } from '../session';
import { DialogHost } from '../ui/dialog/DialogHost';
import { Footer } from './Footer';
import { ProductLogo } from './ProductLogo';

const NAV = [
  { to: '/dashboard', key: 'nav.dashboard', match: '/dashboard' },
  { to: '/deployments', key: 'nav.deployments', match: '/deployments/*' },
  { to: '/management', key: 'nav.management', match: '/management/*' },
];

interface Identity {
  isAdmin?: boolean;
  companies?: { _id: string; name: string }[];
  companyId?: string;
}

function UserMenu({ identity }: { identity: Identity | undefined }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const companies = [...(identity?.companies ?? [])].sort((a, b) => a.name.localeCompare(b.name));
  const close = () => setAnchor(null);
  // SPEC §2: logout returns to '/'. The shell's guard knows a signed-out page is no visit to remember.
  const logout = () => {
    close();
    navigate('/');
    void session.signOut();
  };
  return (
    <>
      <IconButton color="inherit" aria-label={t('nav.userMenu')} aria-haspopup="menu" onClick={(e) => setAnchor(e.currentTarget)}>
        <AccountCircle />
      </IconButton>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={close} anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }} transformOrigin={{ vertical: 'top', horizontal: 'right' }}>
        {companies.length > 0 && <ListSubheader>{t('nav.companies')}</ListSubheader>}
        {companies.map((c) => (
          <MenuItem key={c._id} selected={c._id === identity?.companyId} onClick={close}>
            {c.name}
          </MenuItem>
        ))}
        <MenuItem component={RouterLink} to="/profile/account" onClick={close}>
          {t('nav.profileSettings')}
        </MenuItem>
        <MenuItem onClick={logout}>{t('nav.logout')}</MenuItem>
      </Menu>
    </>
  );
}

/** Main layout (SPEC §2): header with top navigation and user menu, admin banner, content, footer. */
export function MainLayout({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { identity } = useGetIdentity();
  const user = identity as Identity | undefined;
  const inAdmin = Boolean(matchPath('/admin/*', pathname));
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}>
      <AppBar position="sticky" color="inherit" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider' }}>
        <Toolbar sx={{ gap: { xs: 1, md: 3 } }}>
          <Link component={RouterLink} to="/dashboard" underline="none" aria-label={t('nav.dashboard')}>
            <ProductLogo />
          </Link>
          {inAdmin && <Chip label={t('nav.adminMode')} color="success" size="small" />}
          <Box component="nav" sx={{ display: 'flex', gap: 0.5, flex: 1, overflowX: 'auto' }}>
            {NAV.map((item) => {
              const active = Boolean(matchPath(item.match, pathname));
              return (
                <Button key={item.to} component={RouterLink} to={item.to} color={active ? 'primary' : 'inherit'} aria-current={active ? 'page' : undefined}>
                  {t(item.key)}
                </Button>
              );
            })}
          </Box>
          <UserMenu identity={user} />
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
      <Box component="main" id="main" sx={{ flex: 1, width: '100%', maxWidth: 1280, mx: 'auto', px: { xs: 2, md: 4 }, py: 4 }}>
        {children}
      </Box>
      <Footer />
      <DialogHost />
    </Box>
  );
}
