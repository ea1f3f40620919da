/**
 * English strings of the server wizard and the deployments list. They load with those screens
 * (see portal/wizard/i18n.ts) rather than with every front-door page, which keeps the sign-up
 * pages inside their bundle budget. `{{product}}` is filled as in en.ts.
 */
export const wizardEn = {
  wizard: {
    titleCreate: 'Create {{product}} Server',
    titleUpdate: 'Update {{product}} Server',
    defaultName: 'My {{product}} Server',
    close: 'Close',
    back: 'Back',
    next: 'Next',
    continue: 'Continue',
    haveAccount: 'Already have an account?',
    backToConfiguration: 'Back to server configuration',
    serverName: 'Server name',
    backup: 'Backups',
    addOnsHint: 'Capabilities for your team and your security needs.',
    createServer: 'Create server',
    steps: {
      choosePlan: 'Choose your plan',
      chooseRegion: 'Choose a region',
      coreFeatures: 'Core features',
      chooseAddOns: 'Add-ons',
      chooseExtras: 'Extras',
    },
    cycle: { month: 'month', year: 'year' },
    review: {
      title: 'Review your change',
      current: 'Now: ${{total}} per {{cycle}}',
      next: 'After the change: ${{total}} per {{cycle}}',
      dueNow: 'Charged now (prorated for the remaining {{days}} days): ${{amount}}',
      credit: 'Credited for the unused time: ${{amount}}',
      cancel: 'Cancel',
      confirm: 'Confirm change',
    },
    payment: {
      summary: 'Order summary',
      baseTier: '{{name}} (base tier)',
      tax: 'Tax',
      taxNote: 'Tax is added according to your billing country.',
      cardForm: 'Card payment',
      standInNote: 'Test checkout: payments are simulated and no card is charged.',
      cardholderName: 'Name on card',
      cardNumber: 'Card number',
      expiry: 'Expiry (MM/YY)',
      cvc: 'Security code',
      pay: 'Pay and create server',
      confirming: 'Payment received. Confirming your subscription…',
      notConfirmed: 'The payment was received but the subscription is not active yet. Please check Deployments in a moment.',
      discountRemoved: 'Discount removed',
    },
    created: {
      title: 'Your server is on its way',
      updated: 'Your server was updated',
      body: '{{name}} is ordered and will be set up shortly.',
      toDeployments: 'Go to deployments',
      toDashboard: 'Go to dashboard',
    },
  },
  deploymentsPage: {
    empty: 'No servers yet. Create your first one.',
    loadFailed: 'Servers could not be loaded.',
    edit: 'Change',
    free: 'Free',
    subscription: { pending: 'Payment pending', active: 'Active', past_due: 'Past due', paused: 'Paused', canceled: 'Canceled' },
  },
} as const;
