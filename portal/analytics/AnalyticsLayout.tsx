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
import { AppSelector } from './AppSelector';
import { useAnalytics } from './context';

const DRAWER = 248;

/** The dashboard's frame: a top bar with the app selector, the section menu (a drawer on phones), the page. */
export function AnalyticsLayout({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  const { writable } = useAnalytics();
  const [open, setOpen] = useState(false);
  const { pathname } = useLocation();
  const [shownFor, setShownFor] = useState(pathname);
  // Following a menu link closes the phone drawer.
  if (shownFor !== pathname) {
    setShownFor(pathname);
    setOpen(false);
  }
  const nav = <AnalyticsNav />;
  return (
    <Box sx={{ display: 'flex', minHeight: '100vh', bgcolor: 'background.default' }}>
      <AppBar position="fixed" color="inherit" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider', zIndex: (theme) => theme.zIndex.drawer + 1 }}>
        <Toolbar sx={{ gap: 1.5 }}>
          <IconButton edge="start" aria-label={t('analytics.openMenu')} onClick={() => setOpen(true)} sx={{ display: { md: 'none' } }}>
            <MenuIcon />
          </IconButton>
          <ProductLogo compact />
          <Typography sx={{ fontWeight: 600, display: { xs: 'none', sm: 'block' } }}>{t('analytics.title')}</Typography>
          {!writable && <Chip size="small" label={t('analytics.readOnly')} />}
          <Box sx={{ flex: 1 }} />
          <AppSelector />
        </Toolbar>
      </AppBar>
      <Box component="nav" aria-label={t('analytics.menu')} sx={{ width: { md: DRAWER }, flexShrink: 0 }}>
        <Drawer variant="temporary" open={open} onClose={() => setOpen(false)} sx={{ display: { xs: 'block', md: 'none' }, '& .MuiDrawer-paper': { width: DRAWER } }}>
          {nav}
        </Drawer>
        <Drawer variant="permanent" open sx={{ display: { xs: 'none', md: 'block' }, '& .MuiDrawer-paper': { width: DRAWER, boxSizing: 'border-box' } }}>
          <Toolbar />
          {nav}
        </Drawer>
      </Box>
      <Box component="main" id="main" sx={{ flex: 1, minWidth: 0, p: { xs: 2, md: 3 } }}>
        <Toolbar />
        {children}
      </Box>
      <DialogHost />
    </Box>
  );
}
