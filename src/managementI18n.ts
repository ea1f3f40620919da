import { managementEn } from '../i18n/management';
import { i18n } from './i18n';

// Management's strings join the English resources when the first management screen loads.
if (!i18n.exists('management.company.title')) i18n.addResourceBundle('en', 'translation', managementEn, true, false);
