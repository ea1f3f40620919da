import MenuIcon from '@mui/icons-material/Menu';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { ProductLogo } from '../../src/layouts/ProductLogo';
import { DialogHost } from '../../src/ui/dialog/DialogHost';
import { AnalyticsNav } from './AnalyticsNav';
import { BackToPortal } from './BackToPortal';
import { AppSelector } from './AppSelector';
import { useAnalytics } from './context';

const DRAWER = 248;

/** The dashboard's frame: a top bar with the app selector, the section menu (a drawer on phones), the page. */
export function AnalyticsLayout({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  const { writable, embedded, basePath } = useAnalytics();
  const [open, setOpen] = useState(false);
  const { pathname } = useLocation();
  const [shownFor, setShownFor] = useState(pathname);
  // Following a menu link closes the phone drawer.
  if (shownFor !== pathname) {
    setShownFor(pathname);
    setOpen(false);
  }
  const nav = <AnalyticsNav />;
  // Sticky, not fixed: the same frame also sits under the preview's banner inside the prelogin layout.
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <AppBar position="sticky" color="inherit" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider' }}>
        <Toolbar sx={{ gap: 1.5 }}>
          <IconButton edge="start" aria-label={t('analytics.openMenu')} onClick={() => setOpen(true)} sx={{ display: { md: 'none' } }}>
            <MenuIcon />
          </IconButton>
          {!embedded && <BackToPortal basePath={basePath} />}
          <ProductLogo compact />
          <Typography sx={{ fontWeight: 600, display: { xs: 'none', sm: 'block' } }}>{t('analytics.title')}</Typography>
          {!writable && <Chip size="small" label={t('analytics.readOnly')} />}
          <Box sx={{ flex: 1 }} />
          <AppSelector />
        </Toolbar>
      </AppBar>
      <Box sx={{ display: 'flex' }}>
        <Box component="nav" aria-label={t('analytics.menu')} sx={{ width: DRAWER, flexShrink: 0, display: { xs: 'none', md: 'block' }, minHeight: 'calc(100vh - 64px)', borderRight: 1, borderColor: 'divider', bgcolor: 'background.paper' }}>
          {nav}
        </Box>
        <Drawer variant="temporary" open={open} onClose={() => setOpen(false)} sx={{ display: { md: 'none' }, '& .MuiDrawer-paper': { width: DRAWER } }}>
          <Box component="nav" aria-label={t('analytics.menu')}>
            {nav}
          </Box>
        </Drawer>
        <Box component={embedded ? 'div' : 'main'} id={embedded ? undefined : 'main'} sx={{ flex: 1, minWidth: 0, p: { xs: 2, md: 3 } }}>
          {children}
        </Box>
      </Box>
      <DialogHost />
    </Box>
  );
}
