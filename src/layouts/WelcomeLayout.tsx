import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { PreloginContent } from '../domain/content/schemas';
import { ProductLogo } from './ProductLogo';
import { loadPreloginContent } from '../../dataProvider/content/prelogin';
import { fallbackPreloginContent, pickBrands } from './preloginContent';

// The logos' draw, once a visit. The prerendered first screen (scripts/prerender.ts) shows the
// first logos; the app's render that hydrates it does too, as React takes the server's value
// while hydrating, and draws right after.
const VISIT_DRAW = Math.random();
const visitDraw = () => VISIT_DRAW;
const prerenderedDraw = () => 0;
const unchanging = () => () => undefined;

/**
 * Welcome layout (SPEC §2): the form on the left, the marketing panel on the right. The visitor's
 * pages (`pricingLink`) lead to the plans and prices from the top, on a phone too.
 */
export function WelcomeLayout({ children, pricingLink = false }: { children: ReactNode; pricingLink?: boolean }) {
  const { t } = useTranslation();
  const [remote, setRemote] = useState<PreloginContent | null>(null);
  useEffect(() => {
    let live = true;
    void loadPreloginContent().then((content) => live && setRemote(content));
    return () => {
      live = false;
    };
  }, []);
  const content = remote ?? fallbackPreloginContent(t);
  const draw = useSyncExternalStore(unchanging, visitDraw, prerenderedDraw);
  const brands = useMemo(() => pickBrands(content.brands, () => draw), [content.brands, draw]);

  return (
    <Box sx={{ minHeight: '100vh', display: 'grid', gridTemplateColumns: { xs: '1fr', md: 'minmax(420px, 5fr) 7fr' } }}>
      <Box component="main" id="main" sx={{ display: 'flex', flexDirection: 'column', px: { xs: 3, sm: 6 }, py: 4, bgcolor: 'background.paper' }}>
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2 }}>
          <ProductLogo />
          {pricingLink && (
            <Link component={RouterLink} to="/pricing" sx={{ fontWeight: 600 }}>
              {t('welcome.pricingLink')}
            </Link>
          )}
        </Box>
        <Box sx={{ flex: 1, display: 'flex', flexDirection: 'column', justifyContent: 'center', maxWidth: 440, width: '100%', mx: 'auto', py: 4 }}>
          {children}
        </Box>
      </Box>
      <Box
        component="aside"
        aria-label={t('welcome.panelLabel')}
        sx={{
          display: { xs: 'none', md: 'flex' },
          flexDirection: 'column',
          justifyContent: 'center',
          px: 8,
          py: 6,
          color: 'common.white',
          background: 'linear-gradient(135deg, #0b2a6f 0%, #1a56db 60%, #3f83f8 100%)',
        }}
      >
        <Typography variant="h1" component="p" sx={{ fontSize: '2.5rem', mb: 2, maxWidth: 560 }}>
          {content.title}
        </Typography>
        <Typography sx={{ fontSize: '1.15rem', opacity: 0.9, maxWidth: 520, mb: 8 }}>{content.subtitle}</Typography>
        <Typography variant="overline" sx={{ opacity: 0.8 }}>
          {content.brandsHeader}
        </Typography>
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 2, mt: 1 }}>
          {brands.map((brand) => (
            <Box key={brand.logo} sx={{ bgcolor: 'common.white', borderRadius: 2, px: 2, py: 1.5, display: 'flex', alignItems: 'center' }}>
              <Box component="img" src={brand.logo} alt={brand.alt} sx={{ height: brand.size === 'large' ? 36 : brand.size === 'small' ? 20 : 28 }} />
            </Box>
          ))}
        </Stack>
      </Box>
    </Box>
  );
}
