import { taxEn } from '../i18n/tax';
import { i18n } from './i18n';

// The tax labels join the English resources when the first screen showing money loads.
if (!i18n.exists('taxLabel.noCountry')) i18n.addResourceBundle('en', 'translation', taxEn, true, false);
