import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { Footer } from './Footer';
import { ProductLogo } from './ProductLogo';

/**
 * Pre-login pages (pricing, the pre-login wizard, tools, not-found): a slim bar, the page, the
 * footer. `hideNavbar` (route meta) drops the bar for a page with a header of its own.
 */
export function PreloginLayout({ children, hideFooter = false, hideNavbar = false }: { children: ReactNode; hideFooter?: boolean; hideNavbar?: boolean }) {
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}>
      {!hideNavbar && (
        <Box component="header" sx={{ px: { xs: 2, md: 4 }, py: 1.5, bgcolor: 'background.paper', borderBottom: 1, borderColor: 'divider' }}>
          <Link component={RouterLink} to="/" underline="none" aria-label="home">
            <ProductLogo />
          </Link>
        </Box>
      )}
      <Box component="main" id="main" sx={{ flex: 1 }}>
        {children}
      </Box>
      {!hideFooter && <Footer />}
    </Box>
  );
}
