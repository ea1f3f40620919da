import { billingEn } from '../i18n/billing';
import { i18n } from './i18n';

// Billing's strings join the English resources when the first billing screen loads.
if (!i18n.exists('management.billing.subscriptions')) i18n.addResourceBundle('en', 'translation', billingEn, true, false);
