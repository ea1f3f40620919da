/**
 * Billing's strings (Management › Billing and the past-due banner), kept out of the front-door
 * bundle: they join the English resources when the main app's layout or the billing page loads.
 */
export const billingEn = {
  nav: {
    pastDue_one: 'Payment for {{count}} server is past due; it will be paused on {{date}}.',
    pastDue_other: 'Payment for {{count}} servers is past due; they will be paused on {{date}}.',
    pastDueLink: 'Go to billing',
  },
  management: {
    billing: {
      loading: 'Loading billing…',
      subscriptions: 'Subscriptions',
      subscriptionsIntro: 'One subscription per server, billed each cycle.',
      noSubscriptions: 'No subscriptions yet. Order a server to start one.',
      perCycle: { month: '{{amount}} / month', year: '{{amount}} / year' },
      status: { pending: 'Pending', active: 'Active', past_due: 'Past due', paused: 'Paused', canceled: 'Canceled' },
      // Paddle's transaction statuses (and the stand-in's).
      txStatus: { draft: 'Draft', ready: 'Awaiting payment', billed: 'Billed', paid: 'Paid', completed: 'Paid', canceled: 'Canceled', past_due: 'Past due' },
      nextBilling: 'Next billing: {{date}}',
      pausesOn: 'Paused on {{date}} unless paid',
      payNow: 'Pay now',
      transactions: 'Transactions',
      noTransactions: 'No transactions yet.',
      columns: { date: 'Date', invoice: 'Invoice', subtotal: 'Subtotal', tax: 'Tax', total: 'Total', status: 'Status', receipt: 'Receipt' },
      receipt: 'Receipt',
      receiptFor: 'Download the receipt of invoice {{invoice}}',
      receiptSaved: 'Receipt saved as {{file}}.',
      card: 'Card on file',
      cardDetails: '{{brand}} ending in {{last4}}',
      cardExpiry: 'Expires {{month}}/{{year}}',
      noCard: 'No card on file.',
    pastDue_one: 'Payment for {{count}} server is past due since {{since}}; it will be paused on {{date}}.',
      pastDue_other: 'Payment for {{count}} servers is past due since {{since}}; they will be paused on {{date}}.',
      updateCard: 'Update card',
      usage: {
        title: 'Usage and projected bills',
        intro: 'Where each server\'s monthly active users are heading this month, its next bill, and what the next tier would cost now.',
        loading: 'Loading the forecasts…',
        none: 'No servers yet.',
        nextBill: 'Next bill {{amount}}',
        nextBillOn: 'Next bill {{amount}} on {{date}}',
        total: 'Projected next bills in total: {{amount}}',
        noForecast: 'No forecast yet: the first sample of the month comes within the hour.',
        nextTier: 'Next tier, {{plan}} ({{mau}} users): {{price}}; {{dueNow}} now (prorated)',
        upgrade: 'Upgrade to {{plan}}',
        alerts: 'Usage alerts',
        alertsIntro: 'Mails to the company\'s admins, each at most once a month per server.',
        alertKinds: { share80: 'At 80% of the tier', share100: 'At 100% of the tier', runOut: 'When the forecast says the tier will run out' },
        alertsSaved: 'Usage alerts saved.',
      },
    },
  },
} as const;
