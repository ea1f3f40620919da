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
  billingLine: {
    deleted: 'Deleted; no further charge',
    deleting: 'Deleting on {{date}}; no further charge',
    free: 'Free plan',
    paymentPending: 'Payment pending: nothing charged yet',
    canceled: 'Subscription ended; no further charge',
    ending: 'Billing ends {{date}}; no further charge',
    next: 'Next bill {{amount}} on {{date}}',
    none: 'No bill scheduled',
  },
  management: {
    billing: {
      loading: 'Loading billing…',
      subscriptions: 'Subscriptions',
      subscriptionsIntro: 'One subscription per server, billed each cycle.',
      noSubscriptions: 'No subscriptions yet. Order a server to start one.',
      perCycle: { month: '{{amount}} / month', year: '{{amount}} / year' },
      status: { pending: 'Pending', active: 'Active', past_due: 'Past due', paused: 'Paused', canceled: 'Canceled' },
      nextBilling: 'Next billing: {{date}}',
      pausesOn: 'Paused on {{date}} unless paid',
      payNow: 'Pay now',
      transactions: 'Transactions',
      noTransactions: 'No transactions yet.',
      transactionStatus: { completed: 'Paid', paid: 'Paid', billed: 'Billed', ready: 'Awaiting payment', pastDue: 'Past due', canceled: 'Canceled', other: 'Processing' },
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
      updateCardTitle: 'Update the card on file',
      saveCard: 'Save card',
      cardSaved: 'Card saved: the next payments use it.',
    },
  },
} as const;
