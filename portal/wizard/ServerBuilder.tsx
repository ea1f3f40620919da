import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate, useParams } from 'react-router';
import type { ApiError } from '../../dataProvider/httpClient';
import { ordersApi, type DeploymentDto } from '../../dataProvider/orders';
import { usersApi } from '../../dataProvider/users';
import { clientConfig } from '../../src/clientConfig';
import { changeRefusals } from '../../src/domain/orders/changes';
import { serverNameSchema, type OrderChange, type OrderReview } from '../../src/domain/orders/schemas';
import { useSelection } from '../../src/companySelection';
import { failureMessage } from '../../src/ui/form/messages';
import { formatAmount } from '../../src/ui/format';
import { grossText, taxedText, taxLabelText, taxLineText } from '../../src/ui/taxLabel';
import { showToast } from '../../src/ui/toast/toastStore';
import { ConfigureStep } from './ConfigureStep';
import { defaultOrder, orderFeatures, orderFromDeployment, orderOnPlan, shapeOf, type Order, type WizardOptions } from './options';
import { PaymentStep } from './PaymentStep';
import { PaymentUnavailable, type PaymentUnavailableReason } from './PaymentUnavailable';
import { ServerCreated } from './ServerCreated';
import { CONFIGURE_STEPS, landingStep, orderToBegin } from './entry';
import { APP_STEPS, FOOTERLESS, nextStep, PAYMENT_SERVER_PARAM, PRELOGIN_PROGRESS_STEPS, previousStep, PROGRESS_STEPS, STEP_PATHS, stepOfPath, UNCLOSABLE, type AppStep } from './steps';
import { wizard, useWizard } from './store';
import { createBody, submitOrder } from './submit';
import { usePrice } from './usePrice';
import { useWizardOptions } from './useWizardOptions';
import { WizardFrame } from './WizardFrame';

/**
 * The signed-in server wizard (SPEC §2, §4): server-builder/{step} or server-builder/{id}/{step}
 * for edit mode, optionally project-scoped under /c/{cid}/p/{pid}. No navbar.
 */
export default function ServerBuilderPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { search } = useLocation();
  const { cid, pid, '*': rest = '' } = useParams();
  const [first, second] = rest.split('/');
  const editId = second ? first : undefined;
  const asked = stepOfPath(APP_STEPS, second ?? first);
  const { companyId, projectId, projects } = useSelection();
  const state = useWizard();
  const { options, failed } = useWizardOptions(companyId);
  // A new order's payment address names its server, so it opens in any tab of the signed-in browser.
  const addressed = asked === 'paymentDetails' && !editId ? new URLSearchParams(search).get(PAYMENT_SERVER_PARAM) : null;
  // Opened cold (new tab, browser restart) without their server, payment and success have nothing to show: first step.
  const step = asked && landingStep(asked, state, editId, addressed);
  // Naming the company: the total is on its billing country, as every bill of it is.
  const quote = usePrice(options, state, undefined, companyId);
  const [editing, setEditing] = useState<{ deployment: DeploymentDto; order: Order } | null>(null);
  const [editError, setEditError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [review, setReview] = useState<{ change: OrderChange; answer: OrderReview } | null>(null);
  const [unavailable, setUnavailable] = useState<{ id: string; reason: PaymentUnavailableReason } | null>(null);
  const continued = useRef(false);
  const enteredWith = useRef<WizardOptions | null>(null);
  const cont = new URLSearchParams(search).has('continue');
  const product = clientConfig.productName;

  const scope = cid && pid ? `/c/${cid}/p/${pid}` : '';
  const dashboardRoot = `${scope}/dashboard`;
  const base = `${scope}/server-builder${editId ? `/${editId}` : ''}`;
  const go = (s: AppStep, id = editId) => navigate(`${scope}/server-builder${id ? `/${id}` : ''}/${STEP_PATHS[s]}`);
  /** After the order: its payment, at an address that names the server. */
  const toPayment = (serverId: string) => navigate(`${scope}/server-builder/${STEP_PATHS.paymentDetails}?${new URLSearchParams({ [PAYMENT_SERVER_PARAM]: serverId }).toString()}`);
  /** SPEC §4/§8: a failed submit or load goes to dashboardRoot with the message. */
  const fail = (message: string) => {
    showToast({ text: message, variant: 'destructive' });
    wizard.close();
    navigate(dashboardRoot, { replace: true });
  };

  // A new wizard resets unless one is in progress; the query's cly_id and utm tags are kept. Runs
  // again when a configure step is reached with no order it can show (a cold payment address
  // sends the user to choose-plan, and that step needs an order and a total).
  const configuring = step !== null && CONFIGURE_STEPS.has(step);
  const hasOrder = state.subscription !== null;
  useEffect(() => {
    wizard.track(search);
    if (!options) return;
    const firstEntry = enteredWith.current !== options;
    enteredWith.current = options;
    if (editId || cont || !configuring) return;
    // A wizard left in progress is kept, unless it belongs to a server already ordered or edited.
    const decision = orderToBegin(wizard.get(), options, firstEntry);
    if (decision) wizard.begin({ name: t('wizard.defaultName', { product }), order: defaultOrder(options) }, decision.force);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [options, editId, configuring, hasOrder]);

  // Edit mode: the server's current order, checked for what SPEC §8 names.
  useEffect(() => {
    if (!editId || !options) return;
    let live = true;
    ordersApi.get(editId).then(
      (d) => {
        if (!live) return;
        if (!d) return setEditError(t('errors.cannotFindDeployment'));
        if (!d.provider._id) return setEditError(t('errors.cannotFindProvider'));
        if (!d.subscription.planConfig?.region) return setEditError(t('errors.cannotFindPlanConfig'));
        const order = orderFromDeployment(options, d.subscription.plan, d.subscription.planCode, d.provider._id, d.subscription.planConfig);
        setEditing({ deployment: d, order });
        // Billing's "upgrade" opens the wizard on the next tier (?plan=), the server's options kept.
        const asked = options.plans.find((p) => p._id === new URLSearchParams(search).get('plan'));
        if (asked || wizard.get().serverId !== d._id || !wizard.get().inProgress) {
          wizard.begin({ name: d.name, order: asked ? orderOnPlan(options, asked, order) : order, cycle: d.subscription.payment.term.cycle }, true);
          wizard.update({ serverId: d._id, isActiveServerFree: d.flags.free });
        }
      },
      () => live && fail(t('errors.serverDetailLoad')),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [editId, options]);

  // SPEC §4 refusals, from the rule the server applies too.
  const refusals = useMemo(() => {
    if (!editing || !options || !state.subscription) return [];
    const current = shapeOf(options, editing.order, editing.deployment.subscription.payment.term.cycle);
    const next = shapeOf(options, state.subscription, state.activePaymentPeriod);
    return current && next ? Object.values(changeRefusals(current, next)).flat() : [];
  }, [editing, options, state.subscription, state.activePaymentPeriod]);

  const submit = async () => {
    if (!companyId) return fail(t('errors.serverProcessing'));
    if (!projectId) return fail(t('errors.projectRequired'));
    const body = createBody(wizard.get(), companyId, projectId);
    if (!body) return fail(t('errors.serverProcessing'));
    setBusy(true);
    try {
      const answer = await submitOrder(body);
      wizard.submitted(answer._id, answer.provisionSummary ?? null, answer.flags.free);
      if (answer.paymentRequired) toPayment(answer._id);
      else go('serverCreated', undefined);
    } catch (error) {
      fail(failureMessage(error, t));
    } finally {
      setBusy(false);
    }
  };

  const changeOf = (): OrderChange | null => {
    const s = wizard.get();
    if (!s.subscription) return null;
    const o = s.subscription;
    const paid = s.pricing ? Number(s.pricing.total) > 0 : true;
    return { name: s.name.trim(), plan: o.planId, paymentCycle: s.activePaymentPeriod, planConfig: { region: o.planConfig.region, ...(o.planConfig.size ? { size: o.planConfig.size } : {}), features: orderFeatures(o) }, paymentVendor: paid ? 'paddle' : 'free' };
  };
  const startReview = async () => {
    const change = changeOf();
    if (!editId || !change) return;
    setBusy(true);
    try {
      setReview({ change, answer: await ordersApi.review(editId, change) });
    } catch (error) {
      showToast({ text: failureMessage(error, t), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };
  const confirmChange = async () => {
    if (!editId || !review) return;
    setBusy(true);
    try {
      const answer = await ordersApi.update(editId, review.change);
      setReview(null);
      wizard.submitted(answer._id, answer.provisionSummary ?? null, answer.flags.free);
      go(answer.paymentRequired ? 'paymentDetails' : 'serverCreated');
    } catch (error) {
      setReview(null);
      fail((error as ApiError).message || failureMessage(error, t));
    } finally {
      setBusy(false);
    }
  };

  // SPEC §4 continue: the saved pre-login order is submitted by itself, the UI hidden meanwhile.
  useEffect(() => {
    if (!cont || continued.current || !options || !companyId || projects === null) return;
    continued.current = true;
    void (async () => {
      // This device's saved order, else the one kept with the account (sign-up on another device).
      const local = wizard.restoreCompleteSetup();
      const kept = await usersApi.pendingOrder().catch(() => null);
      if (!local && kept) wizard.restoreConfiguration(kept);
      wizard.clearCompleteSetup();
      // Used once: a later sign-in must not order it again.
      if (kept) await usersApi.clearPendingOrder().catch(() => undefined);
      if (!local && !kept && !wizard.get().subscription) return fail(t('errors.serverProcessing'));
      await submit();
    })();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [cont, options, companyId, projects]);

  if (!step || step !== asked) return <Navigate to={`${base}/${STEP_PATHS[step ?? 'choosePlan']}${step ? search : ''}`} replace />;
  // A catalogue with no plan to order is a failed plans load for the user (SPEC §8).
  if (failed || (options && !editId && !defaultOrder(options))) return <Alert severity="error" sx={{ m: 4 }}>{t(failed ?? 'errors.plansLoad')}</Alert>;
  if (editError) return <Alert severity="error" sx={{ m: 4 }} role="alert">{editError}</Alert>;
  // Until the step has an order (the effect above starts one), a spinner: never an empty step
  // with no total and Next disabled.
  if (cont || !options || (editId && !editing && step !== 'serverCreated') || (configuring && !editId && !hasOrder)) {
    return (
      <Box role="status" sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
        <CircularProgress aria-label={t('titles.loading')} />
      </Box>
    );
  }

  const order = state.subscription;
  const nameCheck = serverNameSchema.safeParse(state.name);
  const nameError = step === 'chooseExtras' && !nameCheck.success ? t(nameCheck.error.issues[0]?.message ?? 'validation.invalid') : null;
  const back = previousStep(APP_STEPS, step);
  const onNext = () => {
    if (step === 'chooseExtras') return void (editId ? startReview() : submit());
    const next = nextStep(APP_STEPS, step);
    if (next) go(next);
  };
  const close = () => {
    wizard.close();
    navigate(dashboardRoot);
  };

  // The server this payment is for: the edited one, else the one the address names (older
  // addresses named none: this tab's order). Another than this tab's order is opened cold.
  const payFor = editId ? state.serverId : (addressed ?? state.serverId);
  const coldPayment = step === 'paymentDetails' && payFor !== null && payFor !== state.serverId;
  const paid = (summary: { deploymentId: string; name: string }) => {
    // The success page announces the server paid for, also when the address was opened cold.
    if (coldPayment) wizard.update({ serverId: summary.deploymentId, name: summary.name });
    go('serverCreated', editId);
  };
  let content;
  if (step === 'paymentDetails') {
    if (!payFor) content = <Navigate to={`${base}/${STEP_PATHS.choosePlan}`} replace />;
    else if (unavailable?.id === payFor) content = <PaymentUnavailable reason={unavailable.reason} deploymentsPath={`${scope}/deployments`} />;
    else
      content = (
        <PaymentStep
          key={payFor}
          deploymentId={payFor}
          onPaid={paid}
          // A new order with nothing due was paid meanwhile (another tab); an edit that charged nothing is done.
          onNotDue={editId ? paid : (s) => setUnavailable({ id: payFor, reason: { kind: 'notDue', name: s.name, status: s.status, free: Number(s.total.amount) === 0 } })}
          onUnavailable={editId ? undefined : (error) => setUnavailable({ id: payFor, reason: { kind: 'refused', error } })}
        />
      );
  } else if (step === 'serverCreated') {
    content = <ServerCreated name={state.name} editing={Boolean(editId)} deploymentsPath={`${scope}/deployments`} dashboardPath={dashboardRoot} />;
  } else if (order) {
    content = (
      <>
        {refusals.length > 0 && (
          <Alert severity="error" role="alert" sx={{ mb: 2 }}>
            {refusals.map((key) => t(key)).join(' ')}
          </Alert>
        )}
        <ConfigureStep step={step} options={options} order={order} cycle={state.activePaymentPeriod} name={state.name} nameError={nameError} onOrder={(o) => wizard.setOrder(o)} onCycle={(c) => wizard.setPeriod(c)} onName={(name) => wizard.update({ name })} />
      </>
    );
  }

  return (
    <WizardFrame
      editing={Boolean(editId)}
      onClose={UNCLOSABLE.has(step) ? undefined : close}
      // Back to the configuration of this tab's order; a payment opened cold has none here to go back to.
      backToConfiguration={step === 'paymentDetails' && !coldPayment && unavailable?.id !== payFor ? () => go('chooseExtras') : undefined}
      progress={step === 'serverCreated' ? undefined : { steps: step === 'paymentDetails' && state.prelogin && !coldPayment ? PRELOGIN_PROGRESS_STEPS : PROGRESS_STEPS, current: step }}
      priceFailed={state.pricing?.check === 'failed' && !FOOTERLESS.has(step)}
      footer={FOOTERLESS.has(step) ? null : { totalCents: quote?.total ?? null, cycle: state.activePaymentPeriod, taxBasis: quote?.basis, onBack: back ? () => go(back) : undefined, onNext, nextDisabled: busy || refusals.length > 0 || Boolean(nameError) || !quote, nextLoading: busy }}
    >
      {content}
      <Dialog open={Boolean(review)} onClose={() => setReview(null)} aria-labelledby="review-title">
        <DialogTitle id="review-title">{t('wizard.review.title')}</DialogTitle>
        {review && (
          <DialogContent>
            {/* Now and after on one basis, the company's current country, each amount saying what it includes. */}
            <Typography data-testid="review-current">{t('wizard.review.current', { amount: taxedText(review.answer.current.bill, t), cycle: t(`wizard.cycle.${review.answer.current.cycle}`) })}</Typography>
            <Typography data-testid="review-next">{t('wizard.review.next', { amount: taxedText(review.answer.next.bill, t), cycle: t(`wizard.cycle.${review.answer.next.cycle}`) })}</Typography>
            <Typography sx={{ mt: 1, fontWeight: 700 }} data-testid="review-due-now">
              {t('wizard.review.dueNow', { amount: taxedText(review.answer.dueNow, t), days: review.answer.remainingDays })}
            </Typography>
            {review.answer.paymentRequired && review.answer.taxBasis.kind === 'standard' && (
              <Typography color="text.secondary" data-testid="review-tax-now">
                {t('wizard.review.taxNow', { tax: taxLineText(review.answer.taxBasis, t), amount: formatAmount(review.answer.taxDueNow, { cents: 'always' }) })}
              </Typography>
            )}
            {Number(review.answer.credit) > 0 && <Typography>{t('wizard.review.credit', { amount: grossText(review.answer.credit, review.answer.taxBasis, t) })}</Typography>}
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }} data-testid="review-basis">
              {t(review.answer.taxBasis.country ? 'wizard.review.basis' : 'wizard.review.basisNone', { label: taxLabelText(review.answer.taxBasis, t) })}
            </Typography>
          </DialogContent>
        )}
        <DialogActions>
          <Button onClick={() => setReview(null)}>{t('wizard.review.cancel')}</Button>
          <Button variant="contained" onClick={() => void confirmChange()} loading={busy}>
            {t('wizard.review.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </WizardFrame>
  );
}
