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
import type { TaxBasis } from '../../src/domain/billing/tax';
import { taxLabelText } from '../../src/ui/taxLabel';
import type { WizardStep } from './steps';
import './i18n';

export interface WizardFrameProps {
  editing: boolean;
  onClose?: () => void;
  /** paymentDetails: back to the configuration. */
  backToConfiguration?: () => void;
  /** null hides the footer (SPEC §2: paymentDetails, serverCreated, preloginRegister). */
  footer: {
    totalCents: number | null;
    cycle: BillingCycle;
    taxBasis?: TaxBasis;
    onBack?: () => void;
    onNext?: () => void;
    nextDisabled?: boolean;
    nextLoading?: boolean;
    /** A second way on from the last step (Send for approval); on a phone it takes a row of its own. */
    aside?: { label: string; onClick: () => void; disabled?: boolean };
  } | null;
  priceFailed?: boolean;
  /** Visitors: 'Already have an account?'. */
  showSignIn?: boolean;
  /** Where the user is: the steps in order and the current one (none on the last screen). */
  progress?: { steps: readonly WizardStep[]; current: WizardStep };
  children: ReactNode;
}

/** The wizard's chrome (SPEC §2): top bar with title and close, content, fixed footer with total, Back and Next. */
export function WizardFrame({ editing, onClose, backToConfiguration, footer, priceFailed, showSignIn, progress, children }: WizardFrameProps) {
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
          {progress && <Progress {...progress} />}
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
          <Box sx={{ maxWidth: 1100, mx: 'auto', display: 'flex', flexWrap: footer.aside ? { xs: 'wrap', sm: 'nowrap' } : 'nowrap', alignItems: 'center', gap: 1, rowGap: 0.5 }}>
            <Box sx={{ flex: 1, minWidth: 0 }} aria-live="polite">
              <Typography variant="caption" color="text.secondary">
                {t('pricingPage.total')}
              </Typography>
              <Typography data-testid="wizard-total" sx={{ fontWeight: 700, fontSize: { xs: '1.1rem', md: '1.4rem' }, lineHeight: 1.2 }}>
                {total ?? '—'}
              </Typography>
              {/* What the total includes: the company's billing country once known, else before tax. */}
              {footer.taxBasis && Boolean(footer.totalCents) && (
                <Typography variant="caption" color="text.secondary" data-testid="wizard-total-tax" sx={{ display: 'block' }}>
                  {taxLabelText(footer.taxBasis, t)}
                  {/* The plans' and options' prices on the cards are before tax; the total adds it. */}
                  {footer.taxBasis.kind === 'standard' && ` · ${t('taxPricesBefore')}`}
                </Typography>
              )}
            </Box>
            {footer.onBack && (
              <Button variant="outlined" onClick={footer.onBack}>
                {t('wizard.back')}
              </Button>
            )}
            {footer.aside && (
              <Button variant="text" onClick={footer.aside.onClick} disabled={footer.aside.disabled} sx={{ flexShrink: 0, order: { xs: 10, sm: 0 }, flexBasis: { xs: '100%', sm: 'auto' } }}>
                {footer.aside.label}
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

/**
 * The steps indicator: every step's name with the current one marked on wider screens, and
 * "Step 2 of 6: Region" on a phone (in CSS, so the prerendered first screen is right on both).
 */
function Progress({ steps, current }: { steps: readonly WizardStep[]; current: WizardStep }) {
  const { t } = useTranslation();
  const at = steps.indexOf(current);
  const name = (s: WizardStep) => t(`wizard.progress.names.${s}`);
  return (
    <Box component="nav" aria-label={t('wizard.progress.label')} data-testid="wizard-progress" sx={{ mb: { xs: 2, md: 3 } }}>
      <Typography variant="body2" color="text.secondary" sx={{ display: { xs: 'block', sm: 'none' }, fontWeight: 600 }}>
        {t('wizard.progress.stepOf', { current: at + 1, total: steps.length, name: name(current) })}
      </Typography>
      <Box component="ol" sx={{ display: { xs: 'none', sm: 'flex' }, flexWrap: 'wrap', gap: 1, listStyle: 'none', p: 0, m: 0 }}>
        {steps.map((s, i) => (
          <Box
            component="li"
            key={s}
            aria-current={i === at ? 'step' : undefined}
            sx={{ display: 'flex', alignItems: 'center', gap: 1, fontSize: '0.875rem', color: i === at ? 'primary.main' : i < at ? 'text.primary' : 'text.secondary', fontWeight: i === at ? 700 : 500 }}
          >
            <Box component="span" aria-hidden sx={{ width: 24, height: 24, borderRadius: '50%', display: 'inline-flex', alignItems: 'center', justifyContent: 'center', fontSize: '0.75rem', bgcolor: i <= at ? 'primary.main' : 'action.selected', color: i <= at ? 'primary.contrastText' : 'text.secondary' }}>
              {i + 1}
            </Box>
            {name(s)}
            {i < steps.length - 1 && (
              <Box component="span" aria-hidden sx={{ width: 24, height: '1px', bgcolor: 'divider', ml: 0.5 }} />
            )}
          </Box>
        ))}
      </Box>
    </Box>
  );
}
