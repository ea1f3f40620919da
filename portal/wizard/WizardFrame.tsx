import Close from '@mui/icons-material/Close';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { clientConfig } from '../../src/clientConfig';
import { formatCents } from '../../src/ui/format';
import type { BillingCycle } from '../../src/domain/constants';
import './i18n';

export interface WizardFrameProps {
  editing: boolean;
  onClose?: () => void;
  /** paymentDetails: back to the configuration. */
  backToConfiguration?: () => void;
  /** null hides the footer (SPEC §2: paymentDetails, serverCreated, preloginRegister). */
  footer: { totalCents: number | null; cycle: BillingCycle; onBack?: () => void; onNext?: () => void; nextDisabled?: boolean; nextLoading?: boolean } | null;
  priceFailed?: boolean;
  /** Visitors: 'Already have an account?'. */
  showSignIn?: boolean;
  children: ReactNode;
}

/** The wizard's chrome (SPEC §2): top bar with title and close, content, fixed footer with total, Back and Next. */
export function WizardFrame({ editing, onClose, backToConfiguration, footer, priceFailed, showSignIn, children }: WizardFrameProps) {
  const { t } = useTranslation();
  const product = clientConfig.productName;
  const per = footer?.cycle === 'year' ? t('pricingPage.perYear') : t('pricingPage.perMonth');
  const total = footer?.totalCents == null ? null : footer.totalCents === 0 ? t('pricingPage.free') : `${formatCents(footer.totalCents) ?? ''}${per}`;
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default', pb: footer ? 12 : 4 }}>
      <Paper square elevation={0} component="header" sx={{ borderBottom: 1, borderColor: 'divider', px: { xs: 2, md: 4 }, py: 1.5 }}>
        <Box sx={{ maxWidth: 1100, mx: 'auto', display: 'flex', alignItems: 'center', flexWrap: 'wrap', columnGap: 2 }}>
          <Typography variant="h1" sx={{ flex: 1, fontSize: { xs: '1.15rem', md: '1.5rem' }, m: 0 }}>
            {editing ? t('wizard.titleUpdate', { product }) : t('wizard.titleCreate', { product })}
          </Typography>
          {showSignIn && (
            // On a phone the link takes its own line under the title.
            <Link component={RouterLink} to="/account/signin" variant="body2" sx={{ order: { xs: 3, sm: 0 }, width: { xs: '100%', sm: 'auto' } }}>
              {t('wizard.haveAccount')}
            </Link>
          )}
          {onClose && (
            <IconButton aria-label={t('wizard.close')} onClick={onClose} edge="end">
              <Close />
            </IconButton>
          )}
        </Box>
      </Paper>
      <Box component="main" sx={{ px: { xs: 2, md: 4 }, py: { xs: 2, md: 4 } }}>
        <Box sx={{ maxWidth: 1100, mx: 'auto' }}>
          {backToConfiguration && (
            <Link component="button" type="button" onClick={backToConfiguration} sx={{ mb: 2, display: 'inline-block' }}>
              {t('wizard.backToConfiguration')}
            </Link>
          )}
          {priceFailed && (
            <Alert severity="warning" sx={{ mb: 2 }} role="alert">
              {t('errors.priceCalculationFailed')}
            </Alert>
          )}
          {children}
        </Box>
      </Box>
      {footer && (
        <Paper square elevation={8} component="footer" data-testid="wizard-footer" sx={{ position: 'fixed', left: 0, right: 0, bottom: 0, zIndex: 10, px: { xs: 2, md: 4 }, py: 1.5 }}>
          <Box sx={{ maxWidth: 1100, mx: 'auto', display: 'flex', alignItems: 'center', gap: 1 }}>
            <Box sx={{ flex: 1, minWidth: 0 }} aria-live="polite">
              <Typography variant="caption" color="text.secondary">
                {t('pricingPage.total')}
              </Typography>
              <Typography data-testid="wizard-total" sx={{ fontWeight: 700, fontSize: { xs: '1.1rem', md: '1.4rem' }, lineHeight: 1.2 }}>
                {total ?? '—'}
              </Typography>
            </Box>
            {footer.onBack && (
              <Button variant="outlined" onClick={footer.onBack}>
                {t('wizard.back')}
              </Button>
            )}
            {footer.onNext && (
              <Button variant="contained" onClick={footer.onNext} disabled={footer.nextDisabled} loading={footer.nextLoading}>
                {/* By the screen's width in CSS, so the prerendered first screen is right on a phone too. */}
                <Box component="span" sx={{ display: { xs: 'inline', sm: 'none' } }}>
                  {t('wizard.continue')}
                </Box>
                <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>
                  {t('wizard.next')}
                </Box>
              </Button>
            )}
          </Box>
        </Paper>
      )}
    </Box>
  );
}
