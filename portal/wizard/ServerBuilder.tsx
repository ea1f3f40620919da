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
import type { DeploymentDto } from '../../dataProvider/orders';
import { useClearPendingOrder, usePendingOrder } from '../../dataProvider/users/queries';
import { clientConfig } from '../../src/clientConfig';
import { changeRefusals } from '../../src/domain/orders/changes';
import { serverNameSchema, type OrderChange, type OrderReview } from '../../src/domain/orders/schemas';
import { useSelection } from '../../src/companySelection';
import { useFormSubmit } from '../../src/ui/form/useFormSubmit';
import { useChangeOrder, useOrderedServer, useReviewChange } from '../../dataProvider/orders/queries';
import { formatAmount } from '../../src/ui/format';
import { grossText, taxedText, taxLabelText, taxLineText } from '../../src/ui/taxLabel';
import { showToast } from '../../src/ui/toast/toastStore';
import { ConfigureStep } from './ConfigureStep';
import { defaultOrder, orderFromDeployment, orderOnPlan, shapeOf, type Order, type WizardOptions } from './options';
import { PaymentStep } from './PaymentStep';
import { PaymentUnavailable, type PaymentUnavailableReason } from './PaymentUnavailable';
import { ServerCreated } from './ServerCreated';
import { CONFIGURE_STEPS, landingStep, orderToBegin } from './entry';
import { APP_STEPS, FOOTERLESS, nextStep, PAYMENT_SERVER_PARAM, PRELOGIN_PROGRESS_STEPS, previousStep, PROGRESS_STEPS, STEP_PATHS, stepOfPath, UNCLOSABLE, type AppStep } from './steps';
import { wizard, useWizard } from './store';
import { createBody, submitOrder } from './submit';
import { wizardOrderRequest } from './orderRequest';
import { usePrice } from './usePrice';
import { useWizardOptions } from './useWizardOptions';
import { WizardFrame } from './WizardFrame';
import { SendForApproval } from './SendForApproval';
import { useMay } from '../../src/companyRole';
import { quotePagePath } from '../../src/domain/billing/quotes';
import { formatCents } from '../../src/ui/format';

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
  const [busy, setBusy] = useState(false);
  const [review, setReview] = useState<{ change: OrderChange; answer: OrderReview } | null>(null);
  const [unavailable, setUnavailable] = useState<{ id: string; reason: PaymentUnavailableReason } | null>(null);
  const [quoting, setQuoting] = useState(false);
  const mayOrder = useMay('admin');
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
  /** SPEC §4/§8: a failed submit or load goes to dashboardRoot with the message (`ordering.run` toasts an API's). */
  const leave = () => {
    wizard.close();
    navigate(dashboardRoot, { replace: true });
  };
  const fail = (message: string) => {
    showToast({ text: message, variant: 'destructive' });
    leave();
  };
  const ordering = useFormSubmit({ report: 'toast' });
  const reviewChange = useReviewChange();
  const changeOrder = useChangeOrder();
  const pendingOrder = usePendingOrder();
  const clearPendingOrder = useClearPendingOrder();

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
  const { data: orderedServer, isError: editLoadFailed } = useOrderedServer(editId);
  const edit = ((): { error: string } | { deployment: DeploymentDto; order: Order } | null => {
    const d = orderedServer;
    if (!editId || !options || d === undefined) return null;
    if (!d) return { error: t('errors.cannotFindDeployment') };
    if (!d.provider._id) return { error: t('errors.cannotFindProvider') };
    if (!d.subscription.planConfig?.region) return { error: t('errors.cannotFindPlanConfig') };
    return { deployment: d, order: orderFromDeployment(options, d.subscription.plan, d.subscription.planCode, d.provider._id, d.subscription.planConfig) };
  })();
  const editing = edit && 'order' in edit ? edit : null;
  const editError = edit && 'error' in edit ? edit.error : null;
  useEffect(() => {
    if (editLoadFailed) fail(t('errors.serverDetailLoad'));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [editLoadFailed]);
  useEffect(() => {
    if (!editing || !options) return;
    const d = editing.deployment;
    // Billing's "upgrade" opens the wizard on the next tier (?plan=), the server's options kept.
    const asked = options.plans.find((p) => p._id === new URLSearchParams(search).get('plan'));
    if (asked || wizard.get().serverId !== d._id || !wizard.get().inProgress) {
      wizard.begin({ name: d.name, order: asked ? orderOnPlan(options, asked, editing.order) : editing.order, cycle: d.subscription.payment.term.cycle }, true);
      wizard.update({ serverId: d._id, isActiveServerFree: d.flags.free });
    }
    // The server as read (its order is derived anew each render) and the options say when to begin.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [orderedServer, options]);

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
    const ordered = await ordering.run(async () => {
      const answer = await submitOrder(body);
      wizard.submitted(answer._id, answer.provisionSummary ?? null, answer.flags.free);
      if (answer.paymentRequired) toPayment(answer._id);
      else go('serverCreated', undefined);
    });
    setBusy(false);
    if (!ordered) leave();
  };

  const changeOf = (): OrderChange | null => wizardOrderRequest(wizard.get());
  const startReview = async () => {
    const change = changeOf();
    if (!editId || !change) return;
    setBusy(true);
    await ordering.run(async () => setReview({ change, answer: await reviewChange.mutateAsync({ id: editId, change }) }));
    setBusy(false);
  };
  const confirmChange = async () => {
    if (!editId || !review) return;
    setBusy(true);
    const changed = await ordering.run(async () => {
      const answer = await changeOrder.mutateAsync({ id: editId, change: review.change });
      wizard.submitted(answer._id, answer.provisionSummary ?? null, answer.flags.free);
      go(answer.paymentRequired ? 'paymentDetails' : 'serverCreated');
    });
    setReview(null);
    setBusy(false);
    if (!changed) leave();
  };

  // SPEC §4 continue: the saved pre-login order is submitted by itself, the UI hidden meanwhile.
  useEffect(() => {
    if (!cont || continued.current || !options || !companyId || projects === null) return;
    continued.current = true;
    void (async () => {
      // This device's saved order, else the one kept with the account (sign-up on another device).
      const local = wizard.restoreCompleteSetup();
      const kept = await pendingOrder.mutateAsync(null);
      if (!local && kept) wizard.restoreConfiguration(kept);
      wizard.clearCompleteSetup();
      // Used once: a later sign-in must not order it again. (Its answer also lets the restored order's price settle before the submit.)
      if (kept) await clearPendingOrder.mutateAsync(null);
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
  // What "Send for approval" sends: this order, less its company (the quote's own).
  const quoteOrder = (() => {
    const body = companyId ? createBody(state, companyId, projectId) : null;
    if (!body) return null;
    const { company, ...order } = body;
    void company;
    return order;
  })();
  const quotable = step === 'chooseExtras' && !editId && mayOrder && Boolean(quote?.total) && quoteOrder !== null && refusals.length === 0;
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
      footer={
        FOOTERLESS.has(step)
          ? null
          : {
              totalCents: quote?.total ?? null,
              cycle: state.activePaymentPeriod,
              taxBasis: quote?.basis,
              onBack: back ? () => go(back) : undefined,
              onNext,
              nextDisabled: busy || refusals.length > 0 || Boolean(nameError) || !quote,
              nextLoading: busy,
              // A paid new server can go to the company's billing people as a quote instead of being paid now.
              aside: quotable ? { label: t('wizard.approval.button'), onClick: () => setQuoting(true), disabled: busy || Boolean(nameError) } : undefined,
            }
      }
    >
      {content}
      {quoting && quoteOrder && companyId && (
        <SendForApproval
          companyId={companyId}
          order={quoteOrder}
          total={`${formatCents(quote?.total ?? 0) ?? ''}${state.activePaymentPeriod === 'year' ? t('pricingPage.perYear') : t('pricingPage.perMonth')}`}
          onCancel={() => setQuoting(false)}
          onSent={(sent) => {
            setQuoting(false);
            wizard.close();
            showToast({ text: t('wizard.approval.sent', { number: sent.number }), variant: 'successful' });
            navigate(quotePagePath(sent._id));
          }}
        />
      )}
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
