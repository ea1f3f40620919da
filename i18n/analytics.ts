/**
 * The analytics dashboard's strings (issue 16), kept out of the front-door bundle like billing's:
 * the dashboard screens add them to the English resources when they load. The API's error
 * messages are in en.ts under errors.ANALYTICS_*.
 */
export const analyticsEn = {
  analytics: {
    limits: {
      /** SPEC §8: each limit message links to the API configurations page (API_CONFIGURATIONS_ROUTE). */
      event_keys: 'Limit reached for unique event keys ({{limit}}): {{count}} events were not recorded.',
      segments: 'Limit reached for segmentations per event ({{limit}}): {{count}} segment values were not recorded.',
      segment_values: 'Limit reached for unique values per segmentation ({{limit}}): {{count}} values were not recorded.',
      adjust: 'Adjust the limit',
    },
    roles: { globalAdmin: 'Global admin', admin: 'Admin', user: 'User', askAdmin: 'Ask an admin of this application to change this.' },
    clearPeriods: { '1month': 'Older than 1 month', '3months': 'Older than 3 months', '6months': 'Older than 6 months', '1year': 'Older than 1 year', '2years': 'Older than 2 years', all: 'All data' },
    topEvents: { '24hours': 'Last 24 hours', '30days': 'Last 30 days' },
    tokens: {
      status: { active: 'Active', expired: 'Expired' },
      units: { hours: 'Hours', days: 'Days', months: 'Months' },
      never: 'Never expires',
      shownOnce: 'Copy this token now: it will not be shown again.',
    },
    jobs: {
      kinds: { top_events: 'Top events', clear: 'Clear data', export: 'Export user data', purge: 'Purge user data' },
      status: { scheduled: 'Scheduled', running: 'Running', completed: 'Completed', failed: 'Failed' },
    },
    appUsers: { purgeConfirm: 'Purge all data of this user? This cannot be undone.', downloading: 'Downloading the export…' },
    events: { omitConfirm: 'Omitting these segments deletes their stored data. Continue?', hiddenNote: 'Hidden events are still recorded.' },
  },
} as const;
