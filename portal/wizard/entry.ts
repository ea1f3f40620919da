import { localQuote, type WizardOptions } from './options';
import type { AppStep, PreloginStep, WizardStep } from './steps';
import type { WizardState } from './store';

/**
 * How a wizard address opened cold (a new tab, a browser restart, a bookmark: nothing in storage)
 * still shows a usable step: the step itself with an order, or the first step.
 */

/** The steps that show the order being configured; they need one to show anything. */
export const CONFIGURE_STEPS: ReadonlySet<WizardStep> = new Set(['choosePlan', 'chooseRegion', 'coreFeatures', 'chooseAddOns', 'chooseExtras', 'preloginChoosePlan', 'preloginChooseRegion']);

/** The order can be shown and priced with this catalogue: its plan is offered, its options available. */
export function orderFits(options: WizardOptions, state: WizardState): boolean {
  return Boolean(state.inProgress && state.subscription && localQuote(options, state.subscription, state.activePaymentPeriod));
}

/**
 * Whether to start a new order (SPEC §4: a new wizard resets unless one is in progress), and
 * whether over the one in storage. `firstEntry` is the page's first look with this catalogue: an
 * order whose server was already made is then done with, and so is one this catalogue cannot price
 * (another company's plan group, a plan since withdrawn), which would leave the step with no total
 * and Next disabled. Later (the user moving between steps) only a missing order is started: a cold
 * payment address lands on choose-plan with none.
 */
export function orderToBegin(state: WizardState, options: WizardOptions, firstEntry: boolean): { force: boolean } | null {
  if (!firstEntry) return state.subscription ? null : { force: false };
  if (!state.inProgress || !state.subscription) return { force: false };
  if (state.serverId !== null || !orderFits(options, state)) return { force: true };
  return null;
}

/**
 * The step the signed-in wizard shows at `step`: payment needs the server it pays for, and the
 * success page the server it announces; without one (opened cold) the user starts at the first
 * step. A payment address names its server (`?deploymentId=`), so it opens in any tab; in edit
 * mode payment is for the server being edited, which the page loads itself.
 */
export function landingStep(step: AppStep, state: WizardState, editId: string | undefined, addressedId: string | null = null): AppStep {
  if (step === 'paymentDetails' && !editId && !state.serverId && !addressedId) return 'choosePlan';
  if (step === 'serverCreated' && (editId ? state.serverId !== editId : !state.serverId)) return 'choosePlan';
  return step;
}

/**
 * The step the pre-login wizard shows at `step`: registering orders what was chosen, so without an
 * order in progress when the page opened (a cold complete-setup) the visitor chooses first.
 */
export function preloginLandingStep(step: PreloginStep, hadOrder: boolean): PreloginStep {
  return step === 'preloginRegister' && !hadOrder ? 'preloginChoosePlan' : step;
}
