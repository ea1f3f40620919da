import { adminEn } from '../i18n/admin';
import { i18n } from '../src/i18n';

// The admin area's strings join the English resources when the first admin screen loads.
if (!i18n.exists('resources.companies.name')) i18n.addResourceBundle('en', 'translation', adminEn, true, false);
