import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { lazy, Suspense, useDeferredValue, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { clientConfig } from '../../src/clientConfig';
import { ConfigureStep, PlanChoice } from './ConfigureStep';
import { orderToBegin, preloginLandingStep } from './entry';
import { defaultOrder, orderOnPlan } from './options';
import { FOOTERLESS, nextStep, previousStep, PRELOGIN_PROGRESS_STEPS, PRELOGIN_STEPS, STEP_PATHS, stepOfPath, UNCLOSABLE, type PreloginStep } from './steps';
import { useWizard, wizard } from './store';
import { usePrice } from './usePrice';
import { useWizardOptions } from './useWizardOptions';
import { WizardFrame } from './WizardFrame';

// The sign-up form loads when the visitor reaches complete-setup, keeping the first steps light.
const SignUpPage = lazy(() => import('../auth/SignUpPage'));
const OrderSummary = lazy(() => import('./OrderSummary').then((m) => ({ default: m.OrderSummary })));

/**
 * The pre-login wizard at /get-started/{step} (SPEC §2): plan, region, then an account on
 * complete-setup. A front-door page: no react-admin here. The finished order is kept as the
 * complete-setup marker; once the mailed link signs the visitor in, it is submitted by itself.
 */
export default function GetStartedPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { search } = useLocation();
  const step = stepOfPath(PRELOGIN_STEPS, useParams()['*']);
  const state = useWizard();

  const { options, failed } = useWizardOptions();
  const quote = usePrice(options, state);
  const product = clientConfig.productName;
  // The step's first render (every plan card) runs in the background, in slices the browser can
  // interrupt, after the frame: the store's update that starts the order would otherwise render it
  // in one long task. Later renders of the step are immediate.
  const stepShown = useDeferredValue(Boolean(options && state.subscription), false);

  useEffect(() => {
    // Read on arriving at a step (after the first render, which must match the prerendered page),
    // before the catalogue starts an order: complete-setup opened cold has nothing to register for.
    const hasOrder = Boolean(wizard.get().inProgress && wizard.get().subscription);
    if (step && preloginLandingStep(step, hasOrder) !== step) navigate(`/get-started/${STEP_PATHS.preloginChoosePlan}${search}`, { replace: true });
  }, [step, search, navigate]);

  useEffect(() => {
    wizard.track(search);
    if (!options) return;
    // The pricing calculator's 'Order' carries its choice over (plan, options, period).
    const carried = new URLSearchParams(search);
    const plan = options.plans.find((p) => p._id === carried.get('plan'));
    if (plan) {
      const base = orderOnPlan(options, plan, null);
      const features = carried.getAll('feature');
      // Through orderOnPlan again: an option the plan does not offer falls back to its default
      // rather than leaving an order with no price.
      const order = orderOnPlan(options, plan, {
        ...base,
        planConfig: { ...base.planConfig, region: carried.get('region') ?? base.planConfig.region, features: features.filter((f) => options.features.some((o) => o._id === f)) },
        specialFeatures: { ...base.specialFeatures, domain: carried.get('domain') ?? base.specialFeatures.domain, retention: carried.get('retention') ?? base.specialFeatures.retention },
      });
      wizard.begin({ name: t('wizard.defaultName', { product }), order, cycle: carried.get('cycle') === 'year' ? 'year' : 'month' }, true);
      navigate(`/get-started/${STEP_PATHS.preloginChoosePlan}`, { replace: true });
      return;
    }
    const decision = orderToBegin(wizard.get(), options, true);
    if (decision) wizard.begin({ name: t('wizard.defaultName', { product }), order: defaultOrder(options) }, decision.force);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [options]);

  const close = () => {
    wizard.close();
    navigate('/pricing');
  };
  if (!step) return <Navigate to={`/get-started/${STEP_PATHS.preloginChoosePlan}`} replace />;
  if (failed) return <Alert severity="error" sx={{ m: 4 }}>{t(failed)}</Alert>;
  if (!options || !state.subscription || !stepShown) {
    // The wizard's frame shows at once (and is in the prerendered first screen), with the plan
    // step's heading and hint (the page's largest text); the step's choices once the catalogue is here.
    return (
      <WizardFrame editing={false} showSignIn progress={{ steps: PRELOGIN_PROGRESS_STEPS, current: step }} onClose={UNCLOSABLE.has(step) ? undefined : close} footer={{ totalCents: null, cycle: state.activePaymentPeriod, nextDisabled: true }}>
        {step === 'preloginChoosePlan' ? (
          <PlanChoice cycle={state.activePaymentPeriod}>{null}</PlanChoice>
        ) : (
          <Box role="status" sx={{ display: 'flex', justifyContent: 'center', p: 8 }}>
            <CircularProgress aria-label={t('titles.loading')} />
          </Box>
        )}
      </WizardFrame>
    );
  }
  const go = (s: PreloginStep) => navigate(`/get-started/${STEP_PATHS[s]}`);
  const back = previousStep(PRELOGIN_STEPS, step);
  const next = nextStep(PRELOGIN_STEPS, step);
  return (
    <WizardFrame
      editing={false}
      showSignIn
      progress={{ steps: PRELOGIN_PROGRESS_STEPS, current: step }}
      onClose={UNCLOSABLE.has(step) ? undefined : close}
      priceFailed={state.pricing?.check === 'failed' && !FOOTERLESS.has(step)}
      footer={FOOTERLESS.has(step) ? null : { totalCents: quote?.total ?? null, cycle: state.activePaymentPeriod, taxBasis: quote?.basis, onBack: back ? () => go(back) : undefined, onNext: next ? () => go(next) : undefined, nextDisabled: !quote }}
    >
      {step === 'preloginRegister' ? (
        // The account form with what is being ordered beside it (above it on a phone).
        <Box sx={{ display: 'grid', gap: { xs: 3, md: 4 }, gridTemplateColumns: { xs: '1fr', md: 'minmax(0, 520px) minmax(0, 360px)' }, justifyContent: 'center', alignItems: 'start' }}>
          <Box sx={{ order: { xs: 2, md: 1 }, minWidth: 0 }}>
            <Suspense fallback={<CircularProgress aria-label={t('titles.loading')} />}>
              <SignUpPage onSignedUp={() => wizard.saveCompleteSetup()} pendingOrder={() => wizard.pendingConfiguration()} />
            </Suspense>
          </Box>
          {quote && (
            <Box sx={{ order: { xs: 1, md: 2 }, minWidth: 0 }}>
              <Suspense fallback={null}>
                <OrderSummary name={state.name} planId={state.subscription.planId} quote={quote} options={options} cycle={state.activePaymentPeriod} />
              </Suspense>
            </Box>
          )}
        </Box>
      ) : (
        <ConfigureStep step={step} options={options} order={state.subscription} cycle={state.activePaymentPeriod} name={state.name} onOrder={(o) => wizard.setOrder(o)} onCycle={(c) => wizard.setPeriod(c)} onName={(name) => wizard.update({ name })} />
      )}
    </WizardFrame>
  );
}
