/** SPEC §2 server wizard steps, in order, with the path segment each one answers at. */
export const APP_STEPS = ['choosePlan', 'chooseRegion', 'coreFeatures', 'chooseAddOns', 'chooseExtras', 'paymentDetails', 'serverCreated'] as const;
export type AppStep = (typeof APP_STEPS)[number];

/** The steps the indicator lists: serverCreated is the end, not a step to take. */
export const PROGRESS_STEPS: readonly AppStep[] = APP_STEPS.filter((s) => s !== 'serverCreated');

export const PRELOGIN_STEPS = ['preloginChoosePlan', 'preloginChooseRegion', 'preloginRegister'] as const;
export type PreloginStep = (typeof PRELOGIN_STEPS)[number];

/**
 * The indicator of a visitor's order: its own steps, then the payment it reaches once signed in,
 * so the count stays the same on both sides of the sign-up ("Step 3 of 4", then "Step 4 of 4").
 */
export const PRELOGIN_PROGRESS_STEPS: readonly WizardStep[] = [...PRELOGIN_STEPS, 'paymentDetails'];

export type WizardStep = AppStep | PreloginStep;

export const STEP_PATHS: Record<WizardStep, string> = {
  choosePlan: 'choose-plan',
  chooseRegion: 'choose-region',
  coreFeatures: 'core-features',
  chooseAddOns: 'choose-add-ons',
  chooseExtras: 'choose-extras',
  paymentDetails: 'payment-details',
  serverCreated: 'success',
  preloginChoosePlan: 'choose-plan',
  preloginChooseRegion: 'choose-region',
  preloginRegister: 'complete-setup',
};

/** The query parameter of a payment address that names the server it pays for. */
export const PAYMENT_SERVER_PARAM = 'deploymentId';

export const stepOfPath = <S extends WizardStep>(steps: readonly S[], path: string | undefined): S | null => steps.find((s) => STEP_PATHS[s] === path) ?? null;

/** SPEC §2: no footer on these steps. */
export const FOOTERLESS: ReadonlySet<WizardStep> = new Set(['paymentDetails', 'serverCreated', 'preloginRegister']);
/** SPEC §2: no close button on these steps. */
export const UNCLOSABLE: ReadonlySet<WizardStep> = new Set(['serverCreated', 'preloginRegister']);

/** SPEC §4: Back goes to the previous step, except where there is none to go back to. */
export function previousStep<S extends WizardStep>(steps: readonly S[], step: S): S | null {
  if (step === 'serverCreated' || step === 'paymentDetails') return null;
  const i = steps.indexOf(step);
  return i > 0 ? (steps[i - 1] ?? null) : null;
}

export function nextStep<S extends WizardStep>(steps: readonly S[], step: S): S | null {
  const i = steps.indexOf(step);
  return i >= 0 ? (steps[i + 1] ?? null) : null;
}
